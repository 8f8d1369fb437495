/**
 * A table's name in the page's language. A table created without a name gets
 * "Table <id>" from the server (`defaultTableSettings`, src/service/table-settings.ts):
 * that made-up name is the page's to translate ("賭枱 T1", "Mesa T1"). A name
 * the house gave a table is its own and shows as given.
 */
import { t } from './i18n.js';

export function tableName(table: { readonly id: string; readonly name: string }): string {
  return table.name === `Table ${table.id}` ? t('app.tableNamed', { id: table.id }) : table.name;
}
