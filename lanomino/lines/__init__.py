"""The line mode: the client as one short sentence per line, for screen readers and pipes.

No full-screen drawing, no box characters, no colour: ``front.LineFront`` turns the client's
state into sentences (``narrator``, ``say``, ``talk``) and typed lines into intents (``typed``);
``console`` reads stdin and writes stdout. Nothing here imports prompt_toolkit.
"""
