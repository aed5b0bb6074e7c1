// The layout of the shipped templates: one message's parts written twice,
// as plain text and as HTML that common mail clients render — nested
// tables, inline styles, system fonts, no script, no remote image, no
// stylesheet to strip. Every value is escaped: names and addresses come
// from people.

import type { MailParts } from "./catalog.ts";
import type { MailContent } from "./data.ts";

/** What the layout adds to the parts. */
export interface LayoutFrame {
  /** The document's language. */
  locale: string;
  /** Named at the top of the HTML part. */
  product: string;
  /** The last line. */
  footer: string;
}

const FONT =
  "font-family:-apple-system,BlinkMacSystemFont,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
const TEXT = `${FONT}font-size:16px;line-height:24px;color:#1f2937;`;
const PARAGRAPH = "margin:0 0 16px 0;";
const BUTTON_BLUE = "#1d4ed8";

/** Escapes text for HTML content and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The plain-text part and the HTML part of `parts`. */
export function layoutMail(parts: MailParts, frame: LayoutFrame): MailContent {
  return {
    subject: parts.subject,
    text: plainText(parts, frame),
    html: html(parts, frame),
  };
}

function plainText(parts: MailParts, frame: LayoutFrame): string {
  const blocks: string[] = [];
  if (parts.greeting !== undefined) blocks.push(parts.greeting);
  blocks.push(...parts.paragraphs);
  if (parts.action !== undefined) {
    blocks.push(`${parts.action.label}:\n${parts.action.url}`);
  }
  if (parts.facts !== undefined && parts.facts.length > 0) {
    blocks.push(
      parts.facts.map(([label, value]) => `${label}: ${value}`).join("\n"),
    );
  }
  blocks.push(...parts.closing);
  blocks.push(`-- \n${frame.footer}`);
  return `${parts.heading}\n\n${blocks.join("\n\n")}\n`;
}

function html(parts: MailParts, frame: LayoutFrame): string {
  const e = escapeHtml;
  const body: string[] = [
    `<h1 style="${FONT}margin:0 0 20px 0;font-size:22px;line-height:28px;color:#111827;font-weight:bold;">${
      e(parts.heading)
    }</h1>`,
  ];
  const paragraph = (text: string) =>
    `<p style="${TEXT}${PARAGRAPH}">${e(text)}</p>`;
  if (parts.greeting !== undefined) body.push(paragraph(parts.greeting));
  body.push(...parts.paragraphs.map(paragraph));
  if (parts.action !== undefined) {
    const { label, url, fallback } = parts.action;
    body.push(
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:8px 0 24px 0;"><tr>` +
        `<td align="center" bgcolor="${BUTTON_BLUE}" style="border-radius:6px;background-color:${BUTTON_BLUE};">` +
        `<a href="${
          e(url)
        }" target="_blank" style="${FONT}display:inline-block;padding:12px 24px;font-size:16px;line-height:20px;color:#ffffff;text-decoration:none;font-weight:bold;border-radius:6px;">${
          e(label)
        }</a></td></tr></table>`,
      `<p style="${FONT}margin:0 0 16px 0;font-size:13px;line-height:20px;color:#4b5563;">${
        e(fallback)
      }<br><a href="${
        e(url)
      }" target="_blank" style="color:${BUTTON_BLUE};word-break:break-all;">${
        e(url)
      }</a></p>`,
    );
  }
  if (parts.facts !== undefined && parts.facts.length > 0) {
    const rows = parts.facts.map(([label, value]) =>
      `<tr><td style="${FONT}padding:4px 16px 4px 0;font-size:14px;line-height:20px;color:#4b5563;vertical-align:top;white-space:nowrap;">${
        e(label)
      }</td><td style="${FONT}padding:4px 0;font-size:14px;line-height:20px;color:#111827;vertical-align:top;">${
        e(value)
      }</td></tr>`
    ).join("");
    body.push(
      `<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px 0;">${rows}</table>`,
    );
  }
  body.push(...parts.closing.map(paragraph));
  return [
    "<!DOCTYPE html>",
    `<html lang="${e(frame.locale)}">`,
    '<head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="color-scheme" content="light">',
    `<title>${e(parts.subject)}</title></head>`,
    '<body style="margin:0;padding:0;background-color:#f3f4f6;">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#f3f4f6" style="background-color:#f3f4f6;">',
    '<tr><td align="center" style="padding:24px 12px;">',
    '<table role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0" bgcolor="#ffffff" style="max-width:560px;background-color:#ffffff;border:1px solid #e5e7eb;border-radius:8px;">',
    `<tr><td style="${FONT}padding:20px 32px;border-bottom:1px solid #e5e7eb;font-size:16px;line-height:24px;font-weight:bold;color:#111827;">${
      e(frame.product)
    }</td></tr>`,
    `<tr><td style="padding:28px 32px 12px 32px;">${body.join("")}</td></tr>`,
    `<tr><td style="${FONT}padding:16px 32px;border-top:1px solid #e5e7eb;font-size:12px;line-height:18px;color:#6b7280;">${
      e(frame.footer)
    }</td></tr>`,
    "</table>",
    "</td></tr></table>",
    "</body></html>",
    "",
  ].join("\n");
}
