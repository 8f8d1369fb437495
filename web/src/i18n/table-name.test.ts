import { afterEach, describe, expect, it } from 'vitest';
import { defaultTableSettings } from '../../../src/service/table-settings.js';
import { setLang } from './i18n.js';
import { tableName } from './table-name.js';

describe('tableName', () => {
  afterEach(() => setLang('en'));

  it("translates the server's made-up name of a table created without one", () => {
    const made = { id: 'T1', name: defaultTableSettings('T1').name };
    setLang('zh-Hant');
    expect(tableName(made)).toBe('賭枱 T1');
    setLang('pt');
    expect(tableName(made)).toBe('Mesa T1');
    setLang('en');
    expect(tableName(made)).toBe('Table T1');
  });

  it('shows a name the house gave as given, in every language', () => {
    setLang('zh-Hant');
    expect(tableName({ id: 'T2', name: '貴賓廳 2' })).toBe('貴賓廳 2');
    // Another table's made-up name is a name like any other.
    expect(tableName({ id: 'T2', name: 'Table T1' })).toBe('Table T1');
  });
});
