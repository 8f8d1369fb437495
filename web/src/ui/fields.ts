/**
 * The fields of a form that the server checks field by field (an identity, an
 * exclusion order): each with its label, its control, a hint under it and the
 * problems the server named for it, in the user's language, tied to the
 * control by `aria-describedby` and marked `aria-invalid`, so a screen reader
 * reads the problem with the field.
 */
import { h } from './dom.js';

export interface FieldDef {
  /** The field's name as the server's issues name it (their `path`). */
  readonly name: string;
  readonly label: string;
  readonly control: HTMLInputElement | HTMLSelectElement;
  readonly hint?: string | null;
  /** The sentences of the field's problems; none when it passed. */
  readonly errors?: readonly string[];
}

/** One field: label, control, hint and problems, with ids under `prefix` (`prefix-name`). */
export function fieldBlock(prefix: string, def: FieldDef): HTMLElement {
  const id = `${prefix}-${def.name}`;
  const errors = def.errors ?? [];
  def.control.id = id;
  const described = [
    def.hint ? `${id}-hint` : null,
    errors.length > 0 ? `${id}-error` : null,
  ].filter((x) => x !== null);
  if (described.length > 0) def.control.setAttribute('aria-describedby', described.join(' '));
  if (errors.length > 0) def.control.setAttribute('aria-invalid', 'true');
  return h(
    'div',
    { class: errors.length > 0 ? 'field field-bad' : 'field', 'data-field': def.name },
    h('label', { for: id }, def.label),
    def.control,
    def.hint ? h('p', { class: 'field-hint', id: `${id}-hint` }, def.hint) : null,
    errors.length > 0
      ? h('p', { class: 'field-error', id: `${id}-error` }, errors.join(' '))
      : null,
  );
}

/**
 * A text, date or select control whose value lives in `draft[name]`, so that
 * what was typed survives the form being drawn again (another language, the
 * server's answer).
 */
export function draftInput<K extends string>(
  draft: Record<K, string>,
  name: K,
  props: Record<string, string | boolean> = {},
): HTMLInputElement {
  return h('input', {
    class: 'input',
    autocomplete: 'off',
    value: draft[name],
    'data-focus': `field:${name}`,
    ...props,
    oninput: (e) => {
      draft[name] = (e.target as HTMLInputElement).value;
    },
  });
}

export function draftSelect<K extends string>(
  draft: Record<K, string>,
  name: K,
  options: readonly { readonly value: string; readonly label: string }[],
  onChange?: () => void,
): HTMLSelectElement {
  return h(
    'select',
    {
      class: 'input',
      'data-focus': `field:${name}`,
      onchange: (e) => {
        draft[name] = (e.target as HTMLSelectElement).value;
        onChange?.();
      },
    },
    options.map((o) => h('option', { value: o.value, selected: o.value === draft[name] }, o.label)),
  );
}
