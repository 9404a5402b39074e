// dist/hook.cjs's entry (scripts/build.mjs): bin/hook-notify.cjs takes main and handedOver from
// module.exports. Assigned by hand: exported as an ES module's, they would go through esbuild's
// __export and __toCommonJS helpers, which cost every hook run ~0.1 M instructions.
// isHookInvocation: the bin loads dist/cli.cjs for a hook's full path, dist/commands.cjs otherwise.
import { handedOver, isHookInvocation, main } from "./fast-hook.js";

module.exports = { handedOver, main, isHookInvocation };
