// Every hooks-file shape holds to the one contract (settings/hooks-file-shape.ts), and every
// client's shape is in the list: no file switches on a shape's id.
import { describe, expect, it } from "vitest";
import { clients } from "../../src/clients/index.js";
import { shapeOf, shapes } from "../../src/settings/shapes.js";

describe("hooks-file shapes", () => {
  it("lists each shape once, and every client's shape is listed", () => {
    const ids = shapes.map((shape) => shape.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const adapter of clients) expect(ids).toContain(adapter.shape);
  });

  it.each(shapes.map((shape) => [shape.id, shape] as const))(
    "%s reads an unreadable file as no hooks, and edits JSON in place only at a map path",
    (_id, shape) => {
      expect(shape.eventMap(shape.read("{ not json"))).toSatisfy(
        (map: unknown) => map === undefined || (typeof map === "object" && map !== null),
      );
      if (shape.mapPath !== undefined) expect(shape.mapPath.length).toBeLessThanOrEqual(1);
      if (shape.comments === "code") expect(shape.mapPath).toBeUndefined();
    },
  );

  it("throws for a shape nobody defined", () => {
    expect(() => shapeOf("nope" as never)).toThrow(/no hooks-file shape/);
  });
});
