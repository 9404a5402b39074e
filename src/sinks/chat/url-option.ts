// The `url` option of a chat service: its own http(s) URL or its Apprise form (`tgram://…`).
// A value that is neither fails validation with one line naming the form expected.
import * as z from "../../zod.js";
import type { AppriseForm } from "./service.js";

/** The scheme of a URL-like string ("tgram" of "tgram://…"), lower case, or undefined. */
export function schemeOf(value: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
}

// True for an absolute http: or https: URL.
export function isHttpUrl(value: string): boolean {
  if (!/^https?$/.test(schemeOf(value) ?? "")) return false;
  try {
    return new URL(value).hostname !== "";
  } catch {
    return false;
  }
}

// True when the value is written in the service's Apprise form (its scheme), parsed or not.
export function isAppriseUrl(value: string, apprise: AppriseForm<object>): boolean {
  const scheme = schemeOf(value);
  return scheme !== undefined && apprise.schemes.includes(scheme);
}

// The one-line fix for a url that is neither form: names both.
export function expectedForm(apprise: AppriseForm<object>, httpForm: string | undefined): string {
  return httpForm === undefined
    ? `expected ${apprise.form}`
    : `expected ${httpForm} or ${apprise.form}`;
}

// The url field's schema: a secret string in one of the two forms.
export function urlOption(
  apprise: AppriseForm<object>,
  httpForm: string | undefined,
  description: string,
) {
  const accepts = (value: string): boolean =>
    isAppriseUrl(value, apprise)
      ? apprise.parse(value) !== undefined
      : httpForm !== undefined && isHttpUrl(value);
  return z
    .string()
    .check(
      z.refine(accepts, expectedForm(apprise, httpForm)),
      z.meta({ secret: true, description: `${description} Secret.` }),
    );
}

// `scheme://user:pass@host:port/a/b?x=1` split without WHATWG rules (tokens hold ":" and "@"
// where URL would read a port); undefined when it is not of that shape.
export function splitUrl(value: string): SplitUrl | undefined {
  const match = /^([a-z][a-z0-9+.-]*):\/\/(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(?:\?([^#]*))?$/i.exec(
    value,
  );
  if (!match) return undefined;
  const [, scheme = "", userinfo, host = "", path = "", query = ""] = match;
  const segments = path
    .split("/")
    .filter((segment) => segment !== "")
    .map(safeDecode);
  return {
    scheme: scheme.toLowerCase(),
    userinfo: userinfo === undefined ? undefined : safeDecode(userinfo),
    host,
    segments,
    query: new URLSearchParams(query),
  };
}

/** A URL-like string in pieces, each percent-decoded. */
export interface SplitUrl {
  scheme: string;
  userinfo: string | undefined;
  /** host[:port] as written. */
  host: string;
  segments: string[];
  query: URLSearchParams;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
