import { stringify } from "yaml";
import { trustOf } from "../topics/mod.ts";
import type { ArchiveLine } from "./lines.ts";

/**
 * A topic as `topics/<slug>.md`: YAML front matter, then the body. For people and other tools
 * (Obsidian, static site generators); an import reads `data/topics.*.ndjson`, never these.
 *
 * The front matter is written by the `yaml` package with every string double-quoted: a quoted
 * scalar is a string in YAML 1.1 and 1.2 alike, where a plain one is not (`yes` and `on` are
 * booleans to a YAML 1.1 reader such as PyYAML, `0o17` a number to a 1.2 one), and inside quotes
 * the package escapes what must be (`"`, `\`, line breaks, control characters). So any title
 * (`---`, `key: value`, `null`, `#`, a leading space, a bell) reads back as the same string.
 * Long strings are not folded (a folded line is harder to grep).
 */
export function topicMarkdown(topic: ArchiveLine<"topics">, areaName: string | null): string {
  const front = {
    title: topic.title,
    slug: topic.slug,
    status: topic.status,
    trust: trustOf(topic.status),
    tags: topic.tags,
    area: areaName,
    anchors: topic.anchors,
    governance: {
      authoritative: topic.governance.authoritative,
      approved_by: topic.governance.approved_by,
      approved_at: topic.governance.approved_at,
    },
    updated_at: topic.updated_at,
  };
  const yaml = stringify(front, { lineWidth: 0, minContentWidth: 0, defaultStringType: "QUOTE_DOUBLE", defaultKeyType: "PLAIN" });
  const body = topic.body.endsWith("\n") || topic.body === "" ? topic.body : `${topic.body}\n`;
  return `---\n${yaml}---\n\n${body}`;
}
