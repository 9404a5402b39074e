/** Every wrapper we ever wrote says this in its first lines; other files are never ours. */
export const WRAPPER_MARKER = "hook-notify wrapper";

/** What to do with the project's wrapper script. */
export interface WrapperPlan {
  next: string | undefined;
  change: "added" | "updated" | "removed" | undefined;
  conflict: string | undefined;
  warning: string | undefined;
}

const NOTHING: WrapperPlan = {
  next: undefined,
  change: undefined,
  conflict: undefined,
  warning: undefined,
};

// Project scope: put the current wrapper in place, never over a script someone else wrote.
export function planWrapperInstall(
  current: string | undefined,
  template: string,
  shown: string,
): WrapperPlan {
  if (current === template) return { ...NOTHING, next: current };
  if (current === undefined) return { ...NOTHING, next: template, change: "added" };
  if (isOurWrapper(current)) return { ...NOTHING, next: template, change: "updated" };
  return {
    ...NOTHING,
    next: current,
    conflict: `${shown}: a different script already has this name. Rename or remove it, then run again.`,
  };
}

// Uninstall: remove the wrapper only if we wrote it (any version); leave anything else alone.
export function planWrapperUninstall(current: string | undefined, shown: string): WrapperPlan {
  if (current === undefined) return NOTHING;
  if (isOurWrapper(current)) return { ...NOTHING, change: "removed" };
  return {
    ...NOTHING,
    next: current,
    warning: `${shown}: left in place, it was not written by hook-notify.`,
  };
}

// True for any version of our wrapper, recognised by its marker line.
export function isOurWrapper(text: string): boolean {
  return text.split("\n", 4).some((line) => line.startsWith("#") && line.includes(WRAPPER_MARKER));
}
