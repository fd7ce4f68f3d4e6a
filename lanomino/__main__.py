from lanomino.cli import main

raise SystemExit(main())
