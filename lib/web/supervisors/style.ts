import css from './supervisors.css' with { type: 'text' };

// The Supervisors page's stylesheet travels in the page's own chunk and is added once, when the
// page is first shown, so the first load of the app does not carry it.
let added = false;
export const addSupervisorsStyle = (): void => {
  if (added) return;
  added = true;
  const el = document.createElement('style');
  el.dataset['from'] = 'supervisors-page';
  el.textContent = css;
  document.head.append(el);
};
