import { chat } from "./chat/index.js";
import { desktop } from "./desktop.js";
import { email } from "./email.js";
import type { Sink } from "./sink.js";
import { sound } from "./sound.js";
import { terminal } from "./terminal.js";
import { voice } from "./voice.js";
import { webhook } from "./webhook.js";

/** THE registry: adding a sink = one module, one line here, one test file. */
export const sinks: readonly Sink<never>[] = [
  desktop,
  sound,
  voice,
  terminal,
  chat,
  email,
  webhook,
] as unknown as Sink<never>[];

// The sink whose `type` a config entry names.
export function findSink(type: string): Sink<unknown> | undefined {
  return sinks.find((sink) => sink.type === type);
}

/** The `type` values a config entry may use, for messages. */
export const sinkTypes = (): string[] => sinks.map((sink) => sink.type);

// Desktop, sound and terminal: sinks that fire on this machine (`remote: false`), as each says of itself.
export function isLocalSink(type: string): boolean {
  return findSink(type)?.remote === false;
}
