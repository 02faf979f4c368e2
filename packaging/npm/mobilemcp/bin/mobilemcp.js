#!/usr/bin/env node
// The mobilemcp command of the npm package: it runs the mobilemcp binary of this system's
// package, @mobilemcp/cli-<platform>-<arch>, which npm installed as an optional dependency (npm
// installs only the one whose "os" and "cpu" match). Arguments, stdin, stdout and stderr pass
// straight through, so an MCP client speaks to the binary itself; the exit code is the binary's.
"use strict";

const { spawn } = require("node:child_process");

const pkg = `@mobilemcp/cli-${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "mobilemcp.exe" : "mobilemcp";

let binary;
try {
  binary = require.resolve(`${pkg}/bin/${exe}`);
} catch {
  const offered = Object.keys(require("../package.json").optionalDependencies || {})
    .map((name) => name.replace("@mobilemcp/cli-", ""))
    .join(", ");
  console.error(
    `mobilemcp: ${pkg} is not installed, so there is no mobilemcp for ${process.platform}-${process.arch}. ` +
      `The packages are for ${offered}; npm skips them with --omit=optional (or --no-optional), ` +
      `so install without it. Each release also has archives: https://github.com/mobilemcp/mobilemcp/releases`,
  );
  process.exit(1);
}

const child = spawn(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
// A client that stops the server signals this process; the binary finishes its calls in flight.
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("error", (err) => {
  console.error(`mobilemcp: cannot run ${binary}: ${err.message}`);
  process.exit(1);
});
child.on("exit", (code, signal) => {
  if (signal) {
    // Die of the same signal, as a shell would see the binary die.
    process.removeAllListeners(signal);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code ?? 1);
});
