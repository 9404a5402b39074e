// The desktop banner's side of approve's race (run-approve.ts): the same question on the banner
// (sinks/banner-actions.ts) as on the phone, Allow and Deny for a permission request, or a
// question's options (an AskUserQuestion, a one-field MCP form's choice) one button each. The
// first answer counts: a banner answer ends the phone's wait and the phone is told (withdraw.ts);
// a phone answer (or the time up) withdraws the banner. A question the banner cannot show whole
// (more options than its notifier shows, a text field, the one-button retry) is the phone's alone,
// and the log says why.
import { eitherSignal } from "../abort.js";
import type { Deps } from "../deps.js";
import { askOnBanner, type BannerAnswer } from "../sinks/banner-actions.js";
import { WITHDRAWN } from "../sinks/banner-answer.js";
import { inertText } from "../shown-text.js";
import { OPTIONS, type Answer } from "./answer.js";
import { chosenJson } from "./chosen.js";
import { decisionJson } from "./decision.js";
import type { PermissionInput } from "./read-request.js";
import { recordAnswer, type ApproveRecord } from "./record.js";
import type { Withdraw } from "./send.js";
import { withdrawPhone } from "./withdraw.js";

/** What the banner is asked: the request, its title and body, the run's record and deadline. */
export interface BannerAsk {
  request: PermissionInput;
  title: string;
  body: string;
  deps: Deps;
  record: ApproveRecord;
  /** The run's deadline. */
  signal: AbortSignal;
  endsAt: number;
}

export interface BannerRace {
  /** The banner's answer, or why none (resolves once the banner ended). */
  ended: Promise<BannerAnswer>;
  /** Aborted once the banner answered: the phone's wait ends. */
  answered: AbortSignal;
  /** The question ended elsewhere: the banner is withdrawn, and that noted in the record. */
  close(): Promise<void>;
}

// Shows the banner for the seconds left; its answer aborts `answered`.
export function startBannerRace(ask: BannerAsk): BannerRace {
  const onBanner = new AbortController();
  const bannerEnds = new AbortController();
  const { question } = ask.request;
  const unfit = question === undefined ? undefined : notOnBanner(ask.request);
  const seconds = Math.max(1, Math.floor((ask.endsAt - ask.deps.now()) / 1000));
  const ended = (
    unfit !== undefined
      ? Promise.resolve<BannerAnswer>({ none: unfit })
      : askOnBanner({
          title: ask.title,
          body: ask.body,
          options: question?.labels,
          seconds,
          deps: ask.deps,
          signal: eitherSignal(ask.signal, bannerEnds.signal),
        })
  ).then((answer) => {
    if ("none" in answer) {
      // A question's banner that could not be shown: the log says why the phone alone answers.
      if (question !== undefined && !answer.none.startsWith(WITHDRAWN)) {
        ask.record.approval.banner = answer.none;
      }
    } else onBanner.abort();
    return answer;
  });
  const close = async (): Promise<void> => {
    bannerEnds.abort();
    const end = await ended;
    if ("none" in end && end.none.startsWith(WITHDRAWN))
      ask.record.approval.withdrawn = { where: "desktop", how: end.none };
  };
  return { ended, answered: onBanner.signal, close };
}

// Why a question is not asked on the banner, or undefined when it is.
function notOnBanner(request: PermissionInput): string | undefined {
  const labels = request.question?.labels ?? [];
  if (request.form?.text !== undefined) return "a text field is answered on the phone only";
  if (labels.length < 2) return "a one-button question is asked on the phone only";
  return undefined;
}

/** The run's part the banner's answer fills: the record and the output to print. */
interface Run {
  record: ApproveRecord;
  output?: string | undefined;
}

// The banner answered first: the record, the output the phone's press of the same button would
// give, and the phone told. False when the banner gave no answer.
export async function takeBannerAnswer(
  ask: Pick<BannerAsk, "request" | "deps" | "signal">,
  run: Run,
  ended: BannerAnswer,
  phone: { sentAt: number; withdraw?: Withdraw | undefined },
): Promise<boolean> {
  if ("none" in ended) return false;
  const at = ask.deps.now();
  const found = { at, by: { via: "desktop" as const, program: ended.via } };
  const { question } = ask.request;
  if ("option" in ended) {
    const label = question?.labels[ended.option];
    const decision = OPTIONS[ended.option];
    if (question === undefined || label === undefined || decision === undefined) return false;
    const answer: Answer = { decision };
    const shown = inertText(label, "line");
    recordAnswer(run.record, { ...found, answer }, phone.sentAt, undefined, shown);
    run.output = chosenJson(ask.request, question, ended.option);
    run.record.approval.withdrawn = await withdrawPhone(
      phone.withdraw,
      answer,
      at,
      ask.signal,
      shown,
    );
    return true;
  }
  const answer: Answer = { decision: ended.answer };
  recordAnswer(run.record, { ...found, answer }, phone.sentAt);
  run.output = decisionJson(answer);
  run.record.approval.withdrawn = await withdrawPhone(phone.withdraw, answer, at, ask.signal);
  return true;
}
