// Microsoft Teams through a Workflows webhook ("When a Teams webhook request is received").
import { redactUrl } from "../../redact.js";
import { explainGoneWebhook, readStatus } from "./answer.js";
import { formatTeams } from "./format-teams.js";
import { defineChatService, type AppriseForm } from "./service.js";
import { encodeText } from "./text.js";
import { splitUrl, urlOption } from "./url-option.js";

/** A `chat` entry with "service": "teams", as validated (the url may be the Apprise form). */
export interface TeamsOptions {
  service: "teams";
  url: string;
}

// Apprise `workflows://HOST[:PORT]/WORKFLOW_ID/SIGNATURE`: the flow's manual trigger on that host
// (Office 365 connector URLs, Apprise's msteams://, were retired by Microsoft and are not read).
function parseApprise(value: string): Partial<TeamsOptions> | undefined {
  const url = splitUrl(value);
  if (!url || url.host === "" || url.segments.length !== 2) return undefined;
  const [workflow = "", signature = ""] = url.segments;
  if (!/^[\w-]+$/.test(workflow) || !/^[\w-]+$/.test(signature)) return undefined;
  const query = new URLSearchParams({
    "api-version": url.query.get("api-version") ?? "2016-06-01",
    sp: "/triggers/manual/run",
    sv: "1.0",
    sig: signature,
  });
  return {
    url: `https://${url.host}/workflows/${workflow}/triggers/manual/paths/invoke?${query.toString()}`,
  };
}

const APPRISE: AppriseForm<TeamsOptions> = {
  schemes: ["workflows", "workflow"],
  form: "workflows://HOST/WORKFLOW_ID/SIGNATURE",
  parse: parseApprise,
};

// Everything hook-notify knows about a Teams Workflows webhook: options, Apprise form, request, answer.
export const teams = defineChatService<TeamsOptions>({
  id: "teams",
  name: "Microsoft Teams",
  shape: () => ({
    url: urlOption(
      APPRISE,
      "https://…/workflows/…",
      "Teams Workflows webhook URL, or its Apprise form workflows://HOST/WORKFLOW_ID/SIGNATURE.",
    ),
  }),
  apprise: APPRISE,
  build: formatTeams,
  // The flow answers 202 Accepted and posts the card later: no message id.
  read: readStatus("Microsoft Teams"),
  escape: encodeText,
  describe: (options) => redactUrl(options.url),
  example: "https://example.logic.azure.com/workflows/x?sig=y",
  starter: { name: "TEAMS_WEBHOOK_URL", what: "the Teams Workflows webhook URL" },
  explain: explainGoneWebhook("Microsoft Teams"),
});
