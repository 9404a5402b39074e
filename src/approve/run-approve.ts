// One permission round trip, start to end: read the request, check presence, publish it to the
// phone with signed buttons (Allow, Allow for this session, Deny; a question's, a form's options;
// Let it retry), wait for the one verified answer. Never throws: every
// outcome ends in the record, and `output` is set only when a person answered.
import { randomBytes } from "node:crypto";
import { deadline, type Deadline } from "../abort.js";
import { loadConfig } from "../config/load-config.js";
import type { Deps } from "../deps.js";
import type { ClientAdapter } from "../clients/adapter.js";
import { approverFor, approvingClients } from "../clients/index.js";
import { HookNotifyError, toHookNotifyError } from "../errors.js";
import { assertSuccess, postRequest } from "../http/post.js";
import { redactUrl } from "../redact.js";
import { decisionJson } from "./decision.js";
import { presenceNow } from "../delivery/presence-gate.js";
import { chooseRoute, presenceUnavailable, type PresenceReading } from "./gate.js";
import {
  APPROVE_PRESENCE_TIMEOUT_MS,
  AWAY_IDLE_SECONDS,
  RETRY_WAIT_SECONDS,
} from "../core/defaults.js";
import { askTelegram } from "./ask-telegram.js";
import { sendQuestion, TIME_UP, type PhoneResult } from "./send.js";
import { readPermissionRequest, type PermissionInput } from "./read-request.js";
import { recordAnswer, type ApproveRecord } from "./record.js";
import { buildPublish, offered, type Offers } from "./request.js";
import { chosenJson } from "./chosen.js";
import { inertText } from "../shown-text.js";
import { optionIndex } from "./answer.js";
import { sessionGrant, type SessionGrant } from "./session-grant.js";
import { requestTitle } from "./request.js";
import { startBannerRace, takeBannerAnswer } from "./banner-race.js";
import { ntfyWithdraw } from "./withdraw.js";
import { readSecret, secretPath } from "../machine-key.js";
import {
  isTelegramSetup,
  resolveSetup,
  waitBudget,
  type ApproveSetup,
  type NtfySetup,
} from "./setup.js";
import { openStream } from "./stream.js";
import { logSummary, summarizeRequest, type RequestSummary } from "./summary.js";
import { waitForAnswer } from "./wait.js";

export interface ApproveOptions {
  configPath?: string | undefined;
  /** The hook entry's timeout in seconds (--timeout): the wait ends well inside it. */
  timeout?: number | undefined;
  /** A process of the agent session (the hook's parent), for the presence probe. */
  pid?: number | undefined;
  /** Per probe program (default: the presence module's 1 s); the whole probe gets 6 s at most. */
  presenceTimeoutMs?: number | undefined;
  /** --client: the client whose request this is (default Claude Code); one approve cannot
   * answer ends the run with nothing printed. */
  client?: string | undefined;
  /** `test --approve`: this request instead of stdin, asked whatever the presence. */
  sample?: PermissionInput | undefined;
  /** When the process started (epoch ms): the wait is counted from there. Default: the record's time. */
  startedAt?: number | undefined;
  /** Called once the request is on its way to the phone, with the seconds the phone was given. */
  onSent?: (setup: ApproveSetup, seconds: number) => void;
}

/** What a run leaves: the decision JSON to print (only a person's answer) and its log line. */
export interface ApproveRun {
  record: ApproveRecord;
  secrets: string[];
  output?: string | undefined;
}

/** ntfy shows at most three action buttons on a message (publish.md "Action buttons"). */
const NTFY_MAX_ACTIONS = 3;

// Runs the round trip into `run`; the caller prints `run.output` and writes the record.
export async function runApprove(
  deps: Deps,
  options: ApproveOptions,
  run: ApproveRun,
): Promise<void> {
  const { record } = run;
  // Ends the subscription on every way out, not only at the deadline.
  const done = new AbortController();
  let ends: Deadline | undefined;
  try {
    const asked = await readRequestAndSetup(deps, options, run);
    // One deadline for presence, publish, subscription and wait, counted from the process's start
    // (starting node and reading stdin took some of it): whatever hangs, the run ends here.
    const startedAt = options.startedAt ?? Date.parse(record.time);
    const endsAt = startedAt + waitFor(asked, options.timeout);
    ends = deadline(endsAt - deps.now(), done.signal);
    if (options.sample === undefined) {
      const toPhone = await goesToPhone(asked.setup, deps, options, record, ends.signal);
      if (!toPhone) return;
    }
    await askPhone({ ...asked, deps, options, run, signal: ends.signal, endsAt });
  } catch (error) {
    const known = toHookNotifyError(error);
    // A stage cut short by the deadline: the log says the time was up, not what a retry would do.
    const isTimeUp = ends?.signal.aborted === true && !done.signal.aborted;
    record.error = { code: known.code, message: isTimeUp ? TIME_UP : known.message };
    if (isTimeUp) record.approval.fallback ??= "timeout";
  } finally {
    ends?.clear();
    done.abort();
    record.ms = deps.now() - Date.parse(record.time);
  }
}

// The wait: approveSeconds, or the entry's --timeout less 5 s if sooner; "Let it retry" holds auto
// mode meanwhile, so without --timeout it waits RETRY_WAIT_SECONDS at most.
function waitFor(asked: AskedRequest, timeout: number | undefined): number {
  const budget = waitBudget(asked.setup, timeout);
  const isRetry = asked.request.event === "PermissionDenied" && timeout === undefined;
  return isRetry ? Math.min(budget, RETRY_WAIT_SECONDS * 1000) : budget;
}

/** The request, what the phone shows of it, and where it goes. */
interface AskedRequest {
  client: ClientAdapter;
  request: PermissionInput;
  summary: RequestSummary;
  setup: ApproveSetup;
  /** "Allow for this session", when the client takes it and the request offers one. */
  grant?: SessionGrant | undefined;
}

// The request (stdin, or the sample) and the user's approve setup; both noted in the record.
async function readRequestAndSetup(
  deps: Deps,
  options: ApproveOptions,
  run: ApproveRun,
): Promise<AskedRequest> {
  const { record } = run;
  const client = approverFor(options.client);
  if (client === undefined) {
    const ids = approvingClients()
      .map((adapter) => adapter.id)
      .join(" or ");
    throw new HookNotifyError(
      "USAGE",
      `approve --client ${String(options.client)}: approve answers the permission requests of ${ids} only; the terminal asks.`,
    );
  }
  record.client = client.id;
  const request = options.sample ?? (await readPermissionRequest(deps));
  record.event = request.event ?? record.event;
  const summary = summarizeRequest(request.toolName, request.toolInput);
  Object.assign(record, { project: request.project, session: request.session });
  Object.assign(record.approval, { tool: summary.tool, summary: logSummary(summary) });
  record.approval.sample = options.sample === undefined ? undefined : true;
  const config = loadConfig(deps, { configPath: options.configPath });
  run.secrets.push(...config.secrets);
  if (config.error) throw config.error;
  const setup = resolveSetup(config.value);
  if ("problem" in setup) throw new HookNotifyError("CONFIG_INVALID", setup.problem);
  if (request.question !== undefined) {
    // A partial choice is no choice: a question with more options than buttons stays at the terminal.
    const room = isTelegramSetup(setup) ? request.question.labels.length : NTFY_MAX_ACTIONS;
    if (request.question.labels.length > room) {
      const what = record.event === "PreToolUse" ? "AskUserQuestion" : record.event;
      throw new HookNotifyError(
        "INPUT_INVALID",
        `${what}: the question has ${request.question.labels.length} options and ntfy shows at most ${NTFY_MAX_ACTIONS} buttons; the terminal asks (a Telegram sink shows up to 4).`,
      );
    }
    if (request.form?.text !== undefined && !isTelegramSetup(setup)) {
      throw new HookNotifyError(
        "INPUT_INVALID",
        "Elicitation: a text field is answered by a Telegram reply, and ntfy's buttons carry no text; the client's own form shows.",
      );
    }
    return { client, request, summary, setup };
  }
  const grant = client.takesSessionRules ? sessionGrant(request.suggestions) : undefined;
  return { client, request, summary, setup, grant };
}

/** One ask of the phone, under the run's deadline (`signal`, ending at `endsAt`). */
interface PhoneAsk<Setup extends ApproveSetup = ApproveSetup> extends AskedRequest {
  setup: Setup;
  deps: Deps;
  options: ApproveOptions;
  run: ApproveRun;
  signal: AbortSignal;
  endsAt: number;
}

// Asks through the configured channel and on the desktop banner (Allow and Deny, or a question's
// options: Linux, macOS, Windows; banner-race.ts): the first answer counts, and the other channel is told
// (withdraw.ts): the phone's message loses its buttons and says where it was answered, the banner
// is closed. The answer (or why none) goes in the record.
async function askPhone(ask: PhoneAsk): Promise<void> {
  const { deps, setup, run } = ask;
  const { record } = run;
  record.approval.route = "phone";
  const secret = readSecret(secretPath(deps), deps.platform);
  const kind = ask.options.sample ? ("sample" as const) : ("agent" as const);
  const origin = { ...ask.request, agent: ask.client.name, kind };
  const { question } = ask.request;
  const banner = startBannerRace({
    ...ask,
    record,
    title: requestTitle(ask.summary, origin, question === undefined ? {} : { question }),
    body: question === undefined ? logSummary(ask.summary) : inertText(question.text, "line"),
  });
  // The run's deadline stays the one that ends the phone's wait (its error says "time is up");
  // this one only adds the banner's answer (its own timer never strikes first).
  const phoneEnds = deadline(ask.endsAt - deps.now() + 60_000, ask.signal, banner.answered);
  const phone = { ...ask, signal: phoneEnds.signal };
  const asked = (
    isTelegramSetup(setup)
      ? askTelegram(
          {
            ...phone,
            setup,
            record,
            sample: ask.options.sample !== undefined,
            agent: ask.client.name,
            question: ask.request.question,
          },
          secret,
          (seconds) => ask.options.onSent?.(setup, seconds),
        )
      : askNtfy({ ...phone, setup }, secret)
  ).finally(() => {
    phoneEnds.clear();
  });
  const { result, sentAt, withdraw } = await asked.catch((error: unknown): PhoneResult => {
    if (!banner.answered.aborted) throw error;
    return { result: { none: "answered on the desktop" }, sentAt: deps.now() };
  });
  if ("answer" in result) {
    const { form } = ask.request;
    // A form's text field: the reply's text (inert, checked against the field) is the answer.
    const typed = form?.text === undefined ? undefined : result.answer.reason;
    const index = optionIndex(result.answer.decision);
    const label = typed ?? (index === undefined ? undefined : question?.labels[index]);
    const shown = label === undefined ? undefined : inertText(label, "line");
    const output =
      question === undefined
        ? decisionJson(result.answer, ask.grant)
        : chosenJson(ask.request, question, typed ?? index);
    recordAnswer(
      record,
      typed === undefined ? result : { ...result, answer: { decision: "deny" } },
      sentAt,
      ask.grant,
      shown,
    );
    if (typed !== undefined) record.approval.answer = undefined;
    run.output = output;
    await banner.close();
    return;
  }
  if (banner.answered.aborted) {
    if (await takeBannerAnswer(ask, run, await banner.ended, { sentAt, withdraw })) return;
  }
  await banner.close();
  record.approval.waitedMs = deps.now() - sentAt;
  record.approval.fallback = result.none;
  if ("error" in result && result.error) throw result.error;
}

// ntfy: subscribes to the reply topic, publishes the request, waits for the one verified answer.
async function askNtfy(ask: PhoneAsk<NtfySetup>, secret: Buffer): Promise<PhoneResult> {
  const { deps, setup, signal, run } = ask;
  const { record } = run;
  const requestId = randomBytes(16).toString("base64url");
  record.id = requestId;
  record.approval.request = requestId;
  const since = String(Math.floor(deps.now() / 1000));
  const { root, replyTopic: topic, token, sinkName } = setup;
  const stream = await openStream({ root, topic, token, signal, env: deps.env, sinkName });
  // The phone is promised only the time really left, never more.
  const seconds = Math.max(1, Math.floor((ask.endsAt - deps.now()) / 1000));
  const kind = ask.options.sample ? ("sample" as const) : ("agent" as const);
  const offers: Offers =
    ask.request.question === undefined ? { grant: ask.grant } : { question: ask.request.question };
  const message = buildPublish(
    { ...setup, seconds },
    requestId,
    ask.summary,
    { ...ask.request, agent: ask.client.name, kind },
    secret,
    offers,
  );
  const { sentAt } = await sendQuestion(
    { setup, target: redactUrl(message.url), record },
    deps,
    signal,
    async (timer) => {
      const response = await postRequest(message, { signal: timer, env: deps.env, sinkName });
      assertSuccess(response, { sinkName, service: "ntfy" });
    },
  );
  ask.options.onSent?.(setup, seconds);
  const result = await waitForAnswer({
    setup,
    requestId,
    secret,
    stream,
    since,
    signal,
    env: deps.env,
    now: deps.now,
    onRejected: (r) => record.approval.rejected.push(r),
  });
  // Only a button this message carried answers it (a signed Allow cannot answer a question).
  const withdraw = ntfyWithdraw({ ...setup, env: deps.env }, requestId, message);
  if ("answer" in result && !offered(offers).includes(result.answer)) {
    return { result: { none: "not-offered" }, sentAt, withdraw };
  }
  if ("answer" in result) {
    const { answer: decision, at } = result;
    return { result: { answer: { decision }, at, by: { via: "ntfy" } }, sentAt, withdraw };
  }
  return {
    result: { none: result.none, ...("error" in result ? { error: result.error } : {}) },
    sentAt,
    withdraw,
  };
}

// Presence first; the reading and the route go in the record. True when the phone is asked.
async function goesToPhone(
  setup: ApproveSetup,
  deps: Deps,
  options: ApproveOptions,
  record: ApproveRecord,
  signal: AbortSignal,
): Promise<boolean> {
  const presence = setup.when === "always" ? undefined : await readPresence(deps, options, signal);
  const route = chooseRoute(setup.when, presence ?? presenceUnavailable());
  Object.assign(record.approval, { presence, route: route.to, why: route.why });
  return route.to === "phone";
}

// The presence probe's decision (src/presence/probe.ts); unknown when it cannot run or answer.
async function readPresence(
  deps: Deps,
  options: ApproveOptions,
  signal: AbortSignal,
): Promise<PresenceReading> {
  if (options.pid === undefined) return presenceUnavailable();
  const timer = deadline(
    Math.max(APPROVE_PRESENCE_TIMEOUT_MS, options.presenceTimeoutMs ?? 0),
    signal,
  );
  const found = await presenceNow(
    {
      env: deps.env,
      pid: options.pid,
      idleSeconds: AWAY_IDLE_SECONDS,
      platform: deps.platform,
      ...(options.presenceTimeoutMs === undefined ? {} : { timeoutMs: options.presenceTimeoutMs }),
    },
    timer.signal,
  )
    .catch(() => undefined)
    .finally(() => {
      timer.clear();
    });
  if (found === undefined) return presenceUnavailable();
  const { state, probe, detail, idleSeconds } = found;
  return { state, probe, detail, idleSeconds };
}
