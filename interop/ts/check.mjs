// The interop clients' one check: each prints ok or FAIL with what it got
// and wanted, and finish() prints the summary and exits 1 if any failed.
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';

/** The installed @modelcontextprotocol/sdk's version, for the first line of each run. */
export const sdkVersion = JSON.parse(
  readFileSync(new URL('./node_modules/@modelcontextprotocol/sdk/package.json', import.meta.url)),
).version;

let failures = 0;

/** Compares got with want deeply and prints the outcome. */
export function check(what, got, want) {
  if (isDeepStrictEqual(got, want)) {
    console.log(`ok   ${what}`);
  } else {
    failures++;
    console.log(`FAIL ${what}\n     got  ${JSON.stringify(got)}\n     want ${JSON.stringify(want)}`);
  }
}

/** Prints ALL PASS or how many failed, and exits 0 or 1. */
export function finish() {
  console.log(failures === 0 ? 'ALL PASS' : `${failures} FAILED`);
  process.exit(failures === 0 ? 0 : 1);
}
