// Writes the three shipped sounds (assets/sounds/*.wav): short synthesized tones, no samples.
// attention: two rising beeps; done: a soft rising arpeggio; failure: a low falling buzz.
import { writeFileSync } from "node:fs";

const RATE = 22050;

function tone(freq, seconds, { shape = "sine", volume = 0.5 } = {}) {
  const n = Math.round(RATE * seconds);
  const out = new Float32Array(n);
  for (let i = 0; i < n; i += 1) {
    const t = i / RATE;
    const phase = 2 * Math.PI * freq * t;
    const wave =
      shape === "square"
        ? Math.sign(Math.sin(phase)) * 0.35 + Math.sin(phase) * 0.4
        : Math.sin(phase);
    const attack = Math.min(1, i / (RATE * 0.005));
    const release = Math.min(1, (n - i) / (RATE * 0.03));
    out[i] = wave * volume * attack * release * Math.exp(-2.5 * t);
  }
  return out;
}

const silence = (seconds) => new Float32Array(Math.round(RATE * seconds));

function wav(parts) {
  const samples = parts.reduce((sum, p) => sum + p.length, 0);
  const buffer = Buffer.alloc(44 + samples * 2);
  buffer.write("RIFF", 0);
  buffer.writeUInt32LE(36 + samples * 2, 4);
  buffer.write("WAVEfmt ", 8);
  buffer.writeUInt32LE(16, 16);
  buffer.writeUInt16LE(1, 20); // PCM
  buffer.writeUInt16LE(1, 22); // mono
  buffer.writeUInt32LE(RATE, 24);
  buffer.writeUInt32LE(RATE * 2, 28);
  buffer.writeUInt16LE(2, 32);
  buffer.writeUInt16LE(16, 34);
  buffer.write("data", 36);
  buffer.writeUInt32LE(samples * 2, 40);
  let offset = 44;
  for (const part of parts) {
    for (const sample of part) {
      buffer.writeInt16LE(Math.round(Math.max(-1, Math.min(1, sample)) * 32767), offset);
      offset += 2;
    }
  }
  return buffer;
}

const sounds = {
  attention: [tone(880, 0.12), silence(0.06), tone(1175, 0.16)],
  done: [
    tone(1047, 0.09, { volume: 0.4 }),
    tone(1319, 0.09, { volume: 0.4 }),
    tone(1568, 0.22, { volume: 0.4 }),
  ],
  failure: [
    tone(392, 0.22, { shape: "square" }),
    silence(0.04),
    tone(262, 0.38, { shape: "square" }),
  ],
};

for (const [name, parts] of Object.entries(sounds)) {
  writeFileSync(new URL(`../assets/sounds/${name}.wav`, import.meta.url), wav(parts));
}
