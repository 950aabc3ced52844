import usageCss from './usage.css' with { type: 'text' };

// The Usage page's stylesheet travels in its own chunk and is added once, when first shown.
let added = false;
export const addUsageStyle = (): void => {
  if (added) return;
  added = true;
  const el = document.createElement('style');
  el.dataset['from'] = 'usage-page';
  el.textContent = usageCss;
  document.head.append(el);
};
