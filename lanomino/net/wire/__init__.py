"""The wire: what a message may hold (``schemas``, built on ``checks``) and the JSON forms of
game values (``values``). Parsed and validated once at the edge; inside, keys and signatures are
bytes. The envelope and framing are ``lanomino.net.codec``."""
