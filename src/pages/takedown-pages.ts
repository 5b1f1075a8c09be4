import { html, type SafeHtml } from '../http/html/html.js';
import { layout } from '../http/html/layout.js';
import type { Item } from '../operations/items/item.js';
import { type Removal, removedByText } from '../operations/takedowns/removal.js';
import {
  REPORT_DETAILS_MAX,
  REPORT_REASONS,
  type ReportReason,
} from '../operations/takedowns/reports.js';

/** Where a work is reported: `/<address>/report` (a second segment, so no code can shadow it). */
export const reportPath = (address: string) => `/${address}/report`;

/** The line every work's page carries under its lineage: a plain link to the report form. */
export const reportLink = (item: Item): SafeHtml =>
  html`<p class="report"><a rel="nofollow" href="${reportPath(item.address)}">Report</a> this work to the operators.</p>`;

/** The 410 page of a removed work: that it was removed and by whom, never the operator's reason. */
export function removedPage(removal: Removal): string {
  const body = html`<main class="viewer removed">
<h1>Removed</h1>
<p>The work <code>${removal.address}</code> was ${removedByText(removal.by)} and is no longer available.</p>
<p><a href="/">Recent works</a></p>
</main>`;
  return layout({ title: `${removal.address} · removed`, body });
}

/** The report form (no script): a reason, optional details; `problem` says what was wrong with a send. */
export function reportForm(
  item: Item,
  values: { reason?: string; details?: string } = {},
  problem?: string,
): string {
  const body = html`<main class="viewer report-form">
<h1>Report <a href="/${item.address}">${item.address}</a></h1>
<p>Tell the operators of this site what is wrong with this work. They read every report.</p>
${problem ? html`<p class="problem" role="alert">${problem}</p>` : ''}
<form method="post" action="${reportPath(item.address)}">
<fieldset><legend>Reason</legend>
${(Object.entries(REPORT_REASONS) as [ReportReason, string][]).map(
  ([value, label]) =>
    html`<label><input type="radio" name="reason" value="${value}" required${values.reason === value ? html` checked` : ''}> ${label}</label><br>`,
)}
</fieldset>
<p><label for="details">Details (optional)</label><br>
<textarea id="details" name="details" rows="5" cols="60" maxlength="${REPORT_DETAILS_MAX}">${values.details ?? ''}</textarea></p>
<p><button type="submit">Send the report</button></p>
</form>
</main>`;
  return layout({ title: `Report ${item.address}`, body });
}

/** What a visitor sees once the report is stored. */
export function reportThanks(item: Item): string {
  const body = html`<main class="viewer report-form">
<h1>Thank you</h1>
<p>Your report of <a href="/${item.address}">${item.address}</a> was sent to the operators.</p>
</main>`;
  return layout({ title: 'Report sent', body });
}
