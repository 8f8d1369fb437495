/**
 * Art. 1.1: a fairness alert pushed to the staff's socket, shown at once. The
 * server sends them to croupiers, supervisors and inspectors only.
 */
import type { FairnessAlertMessage } from '../api/types.js';
import { t } from '../i18n/i18n.js';
import { toast } from '../ui/status.js';

export function announceFairnessAlert(message: FairnessAlertMessage): void {
  const { alert } = message;
  const values = {
    table: message.tableId,
    test: alert.test,
    span: t(alert.span === 'window' ? 'inspector.span.window' : 'inspector.span.since-dice-change'),
    p: alert.pValue === null ? '—' : alert.pValue.toExponential(1),
  };
  if (message.raised) toast(t('fairness.alertRaised', values), 'error', '1.1');
  else toast(t('fairness.alertCleared', values), 'info', '1.1');
}
