// Entry point of dist/worker.cjs: the outbox worker (worker-main.ts), or, started with the
// argument "reply", the reply listener (../reply/reply-main.ts) that the worker starts detached
// (reply/offer.ts). One bundle for both: they share nearly all their code (deps, config, the
// journal, the Telegram inbox), which a bundle of the listener's own carried a second time.
if (process.argv[2] === "reply") void import("../reply/reply-main.js");
else void import("./worker-main.js");
