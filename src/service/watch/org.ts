// Which organisation a watch reports on, for its notification titles: `meta.org_id` of an
// analytics answer, the only place the document names it. Asked once a UTC day with the smallest
// request there is (one day of /activity). A key that may not read analytics (401/403: members
// and guests) leaves it unnamed for the day, and the titles show the service's host instead.
import { toHookNotifyError } from "../../errors.js";
import { oneLine, stripControl, truncate } from "../../message/text.js";
import { getAnalyticsAnswer, type ServiceContext } from "../client.js";
import { yesterdayUtc } from "./digest.js";
import type { WatchState } from "./state.js";

// Best effort: sets state.org; another failure is asked again on the next poll, and only a rate
// limit (429) fails the part, so that the watch waits as asked.
export async function learnOrg(ctx: ServiceContext, state: WatchState, now: number): Promise<void> {
  const date = yesterdayUtc(now);
  if (state.org?.checked === date) return;
  try {
    const { meta } = await getAnalyticsAnswer(ctx, "activity", { startDate: date, endDate: date });
    const id =
      typeof meta.org_id === "string" ? truncate(oneLine(stripControl(meta.org_id)), 60) : "";
    state.org = { id: id || undefined, checked: date };
  } catch (error) {
    const status = toHookNotifyError(error).status;
    if (status === 401 || status === 403) state.org = { id: state.org?.id, checked: date };
    if (status === 429) throw error;
  }
}

// The name a notification's title starts with: the organisation when known, else the host.
export function projectOf(baseUrl: string, state: WatchState): string {
  return state.org?.id ?? new URL(baseUrl).host;
}
