// Lines of entries by due time (pending-lines.ts): a line holds its slots sorted by due time, so that
// a look at what is due stops at a line's first slot not yet due, and a line whose target is down
// is skipped whole. Pure: a map of arrays, changed in place.

/** One entry's place in its line: due at `at`, the entry named `key`. */
export interface Slot {
  at: number;
  key: string;
}

/** The lines by name: a target, or "" for entries that keep their own time. */
export type DueLines = Map<string, Slot[]>;

// The keys due at `now` in `lines`, but none of a line whose target is down.
export function dueKeys(
  lines: ReadonlyMap<string, readonly Slot[]>,
  now: number,
  downUntil: ReadonlyMap<string, number>,
): string[] {
  const keys: string[] = [];
  for (const [line, slots] of lines) {
    if (line !== "" && (downUntil.get(line) ?? 0) > now) continue;
    for (const slot of slots) {
      if (slot.at > now) break;
      keys.push(slot.key);
    }
  }
  return keys;
}

// The first time a line comes due: its first entry's, or later, when its target is down till then.
export function earliest(
  lines: ReadonlyMap<string, readonly Slot[]>,
  downUntil: ReadonlyMap<string, number>,
): number | undefined {
  let next: number | undefined;
  for (const [line, slots] of lines) {
    const first = slots[0];
    if (!first) continue;
    const at = line === "" ? first.at : Math.max(first.at, downUntil.get(line) ?? 0);
    if (next === undefined || at < next) next = at;
  }
  return next;
}

// Puts `slot` after those due at the same time or before.
export function addSlot(lines: DueLines, line: string, slot: Slot): void {
  const slots = lines.get(line) ?? [];
  lines.set(line, slots);
  slots.splice(slotAfter(slots, slot.at), 0, slot);
}

// Looks back from the last slot at the same time (a line holds each key once).
export function removeSlot(lines: DueLines, line: string, { at, key }: Slot): void {
  const slots = lines.get(line);
  if (!slots) return;
  for (let i = slotAfter(slots, at) - 1; i >= 0; i--) {
    const slot = slots[i] as Slot;
    if (slot.at < at) break;
    if (slot.key === key) {
      slots.splice(i, 1);
      break;
    }
  }
  if (slots.length === 0) lines.delete(line);
}

// The first slot not before `at` (binary search; equal times keep their order of arrival).
function slotAfter(slots: readonly Slot[], at: number): number {
  let low = 0;
  let high = slots.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if ((slots[middle] as Slot).at <= at) low = middle + 1;
    else high = middle;
  }
  return low;
}
