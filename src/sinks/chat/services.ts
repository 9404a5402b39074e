// THE list of chat services: adding one = its file, its test file and one line here.
import { discord } from "./discord.js";
import { googlechat } from "./googlechat.js";
import { gotify } from "./gotify.js";
import { matrix } from "./matrix.js";
import { mattermost } from "./mattermost.js";
import { ntfy } from "./ntfy.js";
import { pushover } from "./pushover.js";
import type { ChatService, ServiceOptions } from "./service.js";
import { slack } from "./slack.js";
import { teams } from "./teams.js";
import { telegram } from "./telegram.js";

/** Every chat service, in the order init and the docs list them. */
export const chatServices = [
  slack,
  discord,
  teams,
  googlechat,
  mattermost,
  ntfy,
  telegram,
  pushover,
  gotify,
  matrix,
] as const;

/** The `service` values a chat entry may use. */
export type ChatServiceId = (typeof chatServices)[number]["id"];

/** The options of any chat entry (each service's own type, told apart by `service`). */
export type ChatOptions = Parameters<(typeof chatServices)[number]["build"]>[1];

/** The `service` values, for messages and tests. */
export const CHAT_SERVICES: readonly ChatServiceId[] = chatServices.map((service) => service.id);

// The service an entry names; the sink's schema lets no other value through.
export function findService(id: string): ChatService<ServiceOptions> | undefined {
  const all = chatServices as unknown as readonly ChatService<ServiceOptions>[];
  return all.find((service) => service.id === id);
}
