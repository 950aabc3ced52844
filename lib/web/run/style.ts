import activityCss from './activity.css' with { type: 'text' };
import runCss from './run.css' with { type: 'text' };

// The run page's stylesheet travels in the page's own chunk and is added once, when the page is
// first shown, so the first load of the app does not carry it.
let added = false;
export const addRunStyle = (): void => {
  if (added) return;
  added = true;
  const el = document.createElement('style');
  el.dataset['from'] = 'run-page';
  el.textContent = `${runCss}\n${activityCss}`;
  document.head.append(el);
};
