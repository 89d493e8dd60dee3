/** A user's edits of a mounted form, for jsdom page tests: type into a labelled field, pick an option of the first select. */
import { act } from 'react';

/** The input or textarea labelled `label` inside `container`. */
export function field(container: HTMLElement, label: string): HTMLInputElement | HTMLTextAreaElement {
  const element = [...container.querySelectorAll('label')].find((l) => l.textContent === label);
  return document.getElementById(element!.htmlFor) as HTMLInputElement | HTMLTextAreaElement;
}

/** Sets the field's value through the prototype's setter, as typing does, so that React sees the input event. */
export function typeInto(container: HTMLElement, label: string, value: string): void {
  const target = field(container, label);
  const prototype = target instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  act(() => {
    Object.getOwnPropertyDescriptor(prototype, 'value')!.set!.call(target, value);
    target.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Opens the first select (combobox) of `container` and clicks the option named `name`. */
export async function chooseOption(container: HTMLElement, name: string): Promise<void> {
  const select = container.querySelector<HTMLElement>('[role="combobox"]')!;
  act(() => void select.dispatchEvent(new MouseEvent('mousedown', { bubbles: true, button: 0 })));
  const option = [...document.querySelectorAll<HTMLElement>('[role="option"]')].find((o) => o.textContent === name)!;
  act(() => option.click());
  await act(async () => undefined);
}
