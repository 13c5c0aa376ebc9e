/**
 * A notice as an HTML e-mail, in the receipt's frame (email-layout.tsx): a heading, paragraphs, a
 * table of labelled rows, at most one link, the small print and, for updates, the unsubscribe link.
 * Node or browser.
 */
import { EmailHeading, EmailPage, emailDocument, FactsTable, MUTED, PRIMARY_DARK, SmallPrint } from "./email-layout.js";
import type { Notice } from "./notice.js";

function NoticeEmail({ notice }: { notice: Notice }) {
  return (
    <EmailPage title={notice.subject}>
      <EmailHeading>{notice.heading}</EmailHeading>
      {notice.paragraphs.map((p) => (
        <p key={p} style={{ margin: "0 0 16px", overflowWrap: "anywhere" }}>
          {p}
        </p>
      ))}
      {notice.rows?.length ? <FactsTable rows={notice.rows} /> : null}
      {notice.action ? (
        <p style={{ margin: "0 0 16px" }}>
          <a href={notice.action.url} style={{ color: PRIMARY_DARK, fontWeight: 700, overflowWrap: "anywhere" }}>
            {notice.action.label}
          </a>
        </p>
      ) : null}
      <SmallPrint>{notice.footer}</SmallPrint>
      {notice.unsubscribeUrl ? (
        <p style={{ margin: "8px 0 0", fontSize: "14px" }}>
          <a href={notice.unsubscribeUrl} style={{ color: MUTED }}>
            Unsubscribe
          </a>
        </p>
      ) : null}
    </EmailPage>
  );
}

export function noticeHtml(notice: Notice): string {
  return emailDocument(<NoticeEmail notice={notice} />);
}
