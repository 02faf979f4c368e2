// npm-registry.js TARBALL...: an npm registry on the loopback that serves these package tarballs
// alone, so that a line naming a package by its name alone ('npx -y mobilemcp') runs offline against
// what ci/release-packages.sh packed. It prints its address (http://127.0.0.1:PORT/) on the first
// line of stdout and serves until it is stopped. Each package's document has the one version of its
// tarball, tagged latest; anything else is 404.
"use strict";

const { execFileSync } = require("node:child_process");
const crypto = require("node:crypto");
const fs = require("node:fs");
const http = require("node:http");
const path = require("node:path");

const packages = new Map(); // name -> { manifest, file, integrity }
for (const file of process.argv.slice(2)) {
  const manifest = JSON.parse(execFileSync("tar", ["-xzOf", file, "package/package.json"]));
  const data = fs.readFileSync(file);
  const integrity = "sha512-" + crypto.createHash("sha512").update(data).digest("base64");
  const shasum = crypto.createHash("sha1").update(data).digest("hex");
  packages.set(manifest.name, { manifest, file, integrity, shasum });
}

const server = http.createServer((req, res) => {
  const url = decodeURIComponent(req.url.split("?")[0]).replace(/^\/+/, "");
  const base = `http://127.0.0.1:${server.address().port}/`;
  for (const [name, pkg] of packages) {
    const tarball = `${name}/-/${path.basename(pkg.file)}`;
    if (url === name) {
      const version = pkg.manifest.version;
      const doc = {
        name,
        "dist-tags": { latest: version },
        versions: {
          [version]: { ...pkg.manifest, dist: { tarball: base + tarball, integrity: pkg.integrity, shasum: pkg.shasum } },
        },
      };
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify(doc));
      return;
    }
    if (url === tarball) {
      res.writeHead(200, { "content-type": "application/octet-stream" });
      fs.createReadStream(pkg.file).pipe(res);
      return;
    }
  }
  res.writeHead(404, { "content-type": "application/json" });
  res.end('{"error":"not found"}');
});
server.listen(0, "127.0.0.1", () => console.log(`http://127.0.0.1:${server.address().port}/`));
