// Cuts whole messages out of bytes that arrive in arbitrary chunks (one byte at a time, or many
// messages in one chunk). The length comes from the fixed header; nothing is read before it is
// all there.
import { Buffer } from "node:buffer";
import { decodeMessage, messageLength, type Message } from "./message.js";

export class MessageStream {
  private buffered: Buffer = Buffer.alloc(0);

  /** Adds `chunk` and returns the messages it completed, in order. Throws on a malformed one. */
  push(chunk: Buffer): Message[] {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const messages: Message[] = [];
    while (this.buffered.length >= 16) {
      const length = messageLength(this.buffered);
      if (this.buffered.length < length) break;
      messages.push(decodeMessage(this.buffered.subarray(0, length)));
      this.buffered = this.buffered.subarray(length);
    }
    return messages;
  }
}
