import MarkdownIt from "markdown-it";

/** Escapes text for HTML content and attribute values (markdown-it's escaper: & < > "). */
export const escapeHtml = new MarkdownIt().utils.escapeHtml;

/**
 * The script-free pages the API serves (share pages, the consent page, unsubscribe): one shell,
 * not indexed, no referrer, the page's own inline style (their CSP allows `style-src 'unsafe-inline'`
 * and nothing else). `content` is HTML the caller has escaped.
 */
export function htmlPage(title: string, style: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${style}</style>
</head>
<body>
<main>
${content}
</main>
</body>
</html>
`;
}
