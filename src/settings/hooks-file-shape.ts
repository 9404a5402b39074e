// The contract of a hooks-file shape: how hooks sit in a client's file, how to read them, and how
// install and uninstall plan the file. settings/shapes.ts lists them; nothing else switches on one.
import type { FileShape } from "../core/install-target.js";
import type { FileJob, JobInput } from "./file-job.js";
import type { Desired } from "./plan.js";

/** One way hooks sit in a file, from reading it to planning install and uninstall. */
export interface HooksFileShape {
  readonly id: FileShape;
  /** The file's text as data (JSON, or a plugin's entries); undefined when it cannot be read. */
  read(text: string): unknown;
  /** The hooks in that data as an event map of matcher groups, read alike for every shape. */
  eventMap(root: unknown): unknown;
  /** A JSON file edited in place: the keys down to the event map ([] when it is the root). */
  readonly mapPath?: readonly string[];
  /** "client": JSON the client parses, comments as its acceptsJsonc says (doctor checks them);
   * "code": a program of hook-notify's own (a plugin), shown by its summary, never as a diff. */
  readonly comments: "client" | "code";
  /** What else makes a file unfit to edit, beyond its event map (a wrapped bare map). */
  conflicts?(root: Record<string, unknown>, shown: string): string[];
  /** Install's job on the hooks file. */
  installJob(input: JobInput, desired: Desired): FileJob;
  /** Uninstall's job on the hooks file (all events, or the given ones). */
  uninstallJob(input: JobInput, events: readonly string[] | undefined): FileJob;
}

// Identity, for inference: one shape per file, each checked against the one contract.
export const defineShape = (shape: HooksFileShape): HooksFileShape => shape;
