#!/usr/bin/env node
// Thin shim: the real program is the bundled dist/cli.js (npm run build).
import { main } from "../dist/cli.js";

await main(process.argv.slice(2));
