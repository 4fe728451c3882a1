#!/usr/bin/env python3
# Sign a mediactl capability URL (docs/signed-urls.md, "The algorithm").
# Usage: python3 sign.py SECRET_B64URL KID SUB EXP PATH [QUERY]   -> prints PATH?[QUERY&]exp=..&sub=..&kid=..&sig=..
import base64, hashlib, hmac, sys

def sign(secret_b64url, kid, sub, exp, path, query=""):
    secret = base64.urlsafe_b64decode(secret_b64url + "=" * (-len(secret_b64url) % 4))
    params = query.split("&") if query else []
    # Sort by name (before the first "="), then value, then the whole parameter; compare bytes.
    def order(p):
        name, _, value = p.partition("=")
        return (name.encode(), value.encode(), p.encode())
    lines = ["mediactl-url-v1", kid, str(exp), sub, path, "&".join(sorted(params, key=order))]
    mac = hmac.new(secret, "\n".join(lines).encode(), hashlib.sha256).digest()
    sig = base64.urlsafe_b64encode(mac).rstrip(b"=").decode()
    head = f"{path}?{query}&" if query else f"{path}?"
    return f"{head}exp={exp}&sub={sub}&kid={kid}&sig={sig}"

if __name__ == "__main__":
    print(sign(*sys.argv[1:]))
