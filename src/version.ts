import pkg from "../package.json" with { type: "json" };

/** hook-notify's version, from package.json (inlined by the bundler). */
export const version: string = pkg.version;
