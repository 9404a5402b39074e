// What `sessions send` attaches and says: the message text from its words, stdin or a file, and
// the --file / --image attachments, each checked before anything is sent (readable, a regular
// file, at most 5 MiB, a text file or a PDF for --file, a PNG, JPEG, GIF or WebP for --image).
// Only the file's name goes to the service, never its local path.
import { open } from "node:fs/promises";
import { basename } from "node:path";
import { HookNotifyError } from "../errors.js";
import type { SendInput } from "../service/session-api.js";

/** The largest file attached (the service's limit is not documented). */
const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** The largest message text read from stdin or --text-file. */
const MAX_TEXT_BYTES = 1024 * 1024;

/** Where the text of a message may come from; exactly one is used. */
export interface TextSources {
  /** The words on the command line (after the id, and after --), joined by spaces. */
  words: readonly string[];
  /** A lone - was given: read stdin. */
  stdinDash: boolean;
  /** --text-file PATH (- for stdin). */
  textFile?: string | undefined;
  /** The text itself (a caller that has it). */
  text?: string | undefined;
  readStdin: () => Promise<Buffer>;
}

// The message text, exactly as given (a leading - kept, one final newline of a file or stdin
// dropped); refused when empty or given twice.
export async function messageText(from: TextSources): Promise<string> {
  const given = [
    from.words.length > 0 ? "words" : "",
    from.stdinDash ? "stdin (-)" : "",
    from.textFile !== undefined ? "--text-file" : "",
    from.text !== undefined ? "text" : "",
  ].filter(Boolean);
  if (given.length > 1) throw usage(`give the message one way, not ${given.join(" and ")}.`);
  let text = from.text ?? from.words.join(" ");
  if (from.stdinDash || from.textFile === "-") text = asText(await from.readStdin(), "stdin");
  else if (from.textFile !== undefined)
    text = asText(await readFileChecked(from.textFile, MAX_TEXT_BYTES), "--text-file");
  text = text.replace(/\r?\n$/, "");
  if (text.trim() === "")
    throw usage(
      'the message text is empty. Give it after the id (-- "text" when it starts with -), on stdin with -, or with --text-file.',
    );
  return text;
}

// stdin, at most MAX_TEXT_BYTES.
export async function readStdin(): Promise<Buffer> {
  if (process.stdin.isTTY) throw usage("- reads the message from stdin, but stdin is a terminal.");
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_TEXT_BYTES) throw usage("the message on stdin is larger than 1 MiB.");
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

// The files and images of a message, checked; nothing is read twice, no local path is sent.
export async function attachments(
  files: readonly string[] | undefined,
  images: readonly string[] | undefined,
): Promise<Pick<SendInput, "files" | "images">> {
  for (const [flag, list] of [
    ["--file", files],
    ["--image", images],
  ] as const)
    if (list && (list.length === 0 || list.some((path) => path.trim() === "")))
      throw usage(`${flag} needs a path, e.g. ${flag} notes.md.`);
  const fileParts = await Promise.all((files ?? []).map(fileAttachment));
  const imageParts = await Promise.all((images ?? []).map(imageAttachment));
  return {
    ...(fileParts.length > 0 ? { files: fileParts } : {}),
    ...(imageParts.length > 0 ? { images: imageParts } : {}),
  };
}

// A text file (valid UTF-8, no NUL) with its text as parsedData, or a PDF; anything else refused.
async function fileAttachment(
  path: string,
): Promise<{ data: string; parsedData?: string; name: string }> {
  const bytes = await readFileChecked(path, MAX_FILE_BYTES);
  const name = basename(path);
  if (bytes.subarray(0, 5).toString("latin1") === "%PDF-")
    return { data: bytes.toString("base64"), name };
  const text = textOrUndefined(bytes);
  if (text === undefined)
    throw usage(
      `--file ${name}: not a text file or a PDF (the service takes those); an image goes with --image.`,
    );
  return { data: bytes.toString("base64"), parsedData: text, name };
}

const IMAGE_MAGIC: [string, (b: Buffer) => boolean][] = [
  ["PNG", (b) => b.subarray(0, 8).equals(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]))],
  ["JPEG", (b) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff],
  ["GIF", (b) => /^GIF8[79]a/.test(b.subarray(0, 6).toString("latin1"))],
  [
    "WebP",
    (b) =>
      b.subarray(0, 4).toString("latin1") === "RIFF" &&
      b.subarray(8, 12).toString("latin1") === "WEBP",
  ],
];

async function imageAttachment(path: string): Promise<{ data: string }> {
  const bytes = await readFileChecked(path, MAX_FILE_BYTES);
  if (!IMAGE_MAGIC.some(([, test]) => test(bytes)))
    throw usage(`--image ${basename(path)}: not a PNG, JPEG, GIF or WebP image.`);
  return { data: bytes.toString("base64") };
}

// A regular file of at most `maxBytes`, read whole; one line naming the file otherwise.
async function readFileChecked(path: string, maxBytes: number): Promise<Buffer> {
  const name = path;
  const handle = await open(path, "r").catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const why = code === "ENOENT" ? "no such file" : code === "EACCES" ? "not readable" : code;
    throw usage(`cannot read ${name}: ${why || "unreadable"}.`);
  });
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw usage(`${name} is not a regular file.`);
    if (info.size > maxBytes)
      throw usage(
        `${name} is larger than ${String(maxBytes / 1024 / 1024)} MiB; attach a smaller file.`,
      );
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

function asText(bytes: Buffer, where: string): string {
  const text = textOrUndefined(bytes);
  if (text === undefined) throw usage(`${where}: the message is not UTF-8 text.`);
  return text;
}

// The bytes as text when they are valid UTF-8 without NUL, else undefined.
function textOrUndefined(bytes: Buffer): string | undefined {
  if (bytes.includes(0)) return undefined;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function usage(message: string): HookNotifyError {
  return new HookNotifyError("USAGE", message, { retryable: false });
}
