"""PyPI thumbhash's encoder over pixels given on stdin, for Tests/MediaTransformTests/Info/ThumbHashReferenceTests.

Input (the file named by the first argument, else stdin), one JSON object per line: {"name": ..., "width": W, "height": H, "rgba": base64 of W*H*4 bytes}.
Output, one per line: {"name": ..., "hash": base64 of the ThumbHash}.

thumbhash 0.1.2's rgba_to_thumb_hash cannot encode an image with transparency: the line
`a_dc, a_ac, a_scale = encode_channel(a, 5, 5) if has_alpha else 1.0, [], 1.0` binds the whole tuple to a_dc
(Python's conditional expression binds tighter than the tuple), and `round(15 * a_dc)` then raises TypeError.
That one line is parenthesised as the reference (https://github.com/evanw/thumbhash) means it, and nothing else
of the package's code is changed; the output says "patched" when it was.
"""
import base64
import inspect
import json
import sys
import textwrap

import thumbhash

SOURCE = textwrap.dedent(inspect.getsource(thumbhash.rgba_to_thumb_hash))
BROKEN = "encode_channel(a, 5, 5) if has_alpha else 1.0, [], 1.0"
FIXED = "encode_channel(a, 5, 5) if has_alpha else (1.0, [], 1.0)"
patched = BROKEN in SOURCE
if patched:
    namespace = dict(vars(thumbhash))
    exec(compile(SOURCE.replace(BROKEN, FIXED), "thumbhash_patched", "exec"), namespace)
    encode = namespace["rgba_to_thumb_hash"]
else:
    encode = thumbhash.rgba_to_thumb_hash

for line in (open(sys.argv[1]) if len(sys.argv) > 1 else sys.stdin):
    item = json.loads(line)
    rgba = list(base64.b64decode(item["rgba"]))
    digest = bytes(encode(item["width"], item["height"], rgba))
    print(json.dumps({"name": item["name"], "hash": base64.b64encode(digest).decode(), "patched": patched}))
