// `hook-notify instal`: a mistyped command gets the one it most likely meant, not yargs'
// "Unknown argument" (the default command, the hook, would otherwise take the word).

// The known name within two edits of `word` (or that `word` starts), closest first; undefined if none.
export function closestName(word: string, names: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of names) {
    const distance = name.startsWith(word) && word.length >= 3 ? 1 : editDistance(word, name);
    if (distance <= 2 && (best === undefined || distance < best.distance))
      best = { name, distance };
  }
  return best?.name;
}

// Levenshtein distance: insertions, deletions and substitutions.
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(
        (previous[j] ?? 0) + 1,
        (current[j - 1] ?? 0) + 1,
        (previous[j - 1] ?? 0) + cost,
      );
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

// The message for a first word that names no command, or undefined when it is not such a word.
export function unknownCommandMessage(
  first: string | undefined,
  names: readonly string[],
): string | undefined {
  if (first === undefined || first.startsWith("-") || first.trimStart().startsWith("{")) return;
  if (first === "run" || names.includes(first)) return;
  const guess = closestName(first, names);
  const hint = guess === undefined ? "" : ` Did you mean "hook-notify ${guess}"?`;
  return `hook-notify: "${first}" is not a command.${hint} Run hook-notify --help for the list.`;
}

// The message for a flag no command knows (`--dry-rn`), with the known flag it most likely meant.
export function unknownFlagMessage(flag: string, names: readonly string[]): string {
  const bare = flag.replace(/^-+/, "").split("=")[0] ?? "";
  const guess = bare.length > 1 ? closestName(bare, names) : undefined;
  const hint = guess === undefined ? "" : ` Did you mean --${guess}?`;
  return `hook-notify: unknown option ${flag}.${hint}`;
}
