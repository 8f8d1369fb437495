/**
 * A law or an article cited by a refusal, in the user's language. The server
 * cites the regulation's articles bare ("3.4") and the other laws by name
 * ("Lei 10/2012, art. 2", "Instrução 1/2016", src/service/people.ts
 * `citation`): the first reads "第3.4條" / "Art. 3.4", the others
 * "第10/2012號法律第2條" / "Lei n.º 10/2012, art. 2.º" / "Law 10/2012, art. 2".
 * A citation of another shape is shown as the server wrote it.
 */
import { type Lang, translate } from './i18n.js';

const REGULATION_ARTICLE = /^\d+(\.\d+)*$/;
const LAW = /^(Lei|Instrução) (\d+\/\d{4})(?:, art\. (\d+))?$/;

export function lawCitation(lang: Lang, cited: string): string {
  if (REGULATION_ARTICLE.test(cited)) return translate(lang, 'app.article', { a: cited });
  const match = LAW.exec(cited);
  if (match === null) return cited;
  const [, kind, number, article] = match;
  const law = translate(lang, kind === 'Lei' ? 'law.lei' : 'law.instrucao', { n: number! });
  return article === undefined ? law : translate(lang, 'law.lawArticle', { law, a: article });
}
