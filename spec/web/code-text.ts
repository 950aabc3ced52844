import type { Locator } from 'playwright-core';

// Setting the text of a CodeMirror editor the way a person pastes it. Playwright's `fill` types
// into the contenteditable and CodeMirror reads the changed DOM back; on a loaded machine it was
// seen to read a multi-line text partially (CI failed on a text with one error too many). A paste
// event carries the whole text in one transaction, and the lines shown are checked afterwards.

const linesShown = (box: Locator): Promise<string> =>
  box.evaluate((el) => Array.from(el.querySelectorAll('.cm-line'), (l) => l.textContent ?? '').join('\n'));

const paste = (box: Locator, text: string): Promise<void> =>
  box.evaluate((el, value) => {
    const data = new DataTransfer();
    data.setData('text/plain', value);
    el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);

export const setCodeText = async (box: Locator, text: string): Promise<void> => {
  for (let tries = 0; tries < 5; tries += 1) {
    await box.click();
    await box.press('ControlOrMeta+a');
    await paste(box, text);
    if ((await linesShown(box)) === text) return;
  }
  throw new Error(`the editor would not hold the text; it shows:\n${await linesShown(box)}`);
};
