// Sign a mediactl capability URL (docs/signed-urls.md, "The algorithm").
// Usage: node sign.mjs SECRET_B64URL KID SUB EXP PATH [QUERY]   -> prints PATH?[QUERY&]exp=..&sub=..&kid=..&sig=..
import { createHmac } from "node:crypto";
import { realpathSync } from "node:fs";
import { pathToFileURL } from "node:url";

const compare = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)); // bytes, not UTF-16 units
const split = (p) => (p.includes("=") ? [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)] : [p, ""]);

export function sign(secretB64url, kid, sub, exp, path, query = "") {
  const params = query ? query.split("&") : [];
  // Sort by name (before the first "="), then value, then the whole parameter.
  const sorted = [...params].sort((a, b) => {
    const [an, av] = split(a), [bn, bv] = split(b);
    return compare(an, bn) || compare(av, bv) || compare(a, b);
  });
  const lines = ["mediactl-url-v1", kid, String(exp), sub, path, sorted.join("&")];
  const sig = createHmac("sha256", Buffer.from(secretB64url, "base64url")).update(lines.join("\n")).digest("base64url");
  return `${path}?${query ? query + "&" : ""}exp=${exp}&sub=${sub}&kid=${kid}&sig=${sig}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href) console.log(sign(...process.argv.slice(2)));
