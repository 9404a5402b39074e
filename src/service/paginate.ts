import { MAX_PAGES } from "../core/defaults.js";
// Cursor pagination as async iteration: the first page without a cursor, then while the service
// says there is more, the next one with its cursor (research/service-api.md, "Pagination").

/** One page as the caller's fetch returns it. */
export interface Page<T> {
  items: T[];
  hasMore: boolean;
  nextCursor?: string | null | undefined;
}

// Yields every item of every page; stops on hasMore false, a missing or repeated cursor, or
// maxPages.
export async function* paginate<T>(
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
  maxPages = MAX_PAGES,
): AsyncGenerator<T, void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const result = await fetchPage(cursor);
    yield* result.items;
    const next = result.nextCursor ?? undefined;
    if (!result.hasMore || !next || seen.has(next)) return;
    seen.add(next);
    cursor = next;
  }
}
