import type { ComponentChildren } from 'preact';
import { useRef } from 'preact/hooks';

// Tabs as WAI-ARIA describes them: a tablist of buttons, arrow keys (and Home/End) move between
// them, only the selected one is in the Tab order, and the panel is labelled by its tab. Only the
// selected panel is rendered, so a tab's reads (the diff, the graph) happen when it is opened.

export interface TabDef { readonly id: string; readonly label: string }

export const Tabs = ({ label, tabs, selected, onSelect, children }: {
  readonly label: string;
  readonly tabs: readonly TabDef[];
  readonly selected: string;
  readonly onSelect: (id: string) => void;
  readonly children: ComponentChildren;
}) => {
  const list = useRef<HTMLDivElement>(null);
  const move = (to: number) => {
    const t = tabs[(to + tabs.length) % tabs.length]!;
    onSelect(t.id);
    list.current?.querySelector<HTMLButtonElement>(`#tab-${t.id}`)?.focus();
  };
  const at = tabs.findIndex((t) => t.id === selected);
  return (
    <div class="tabs">
      <div role="tablist" aria-label={label} ref={list} class="tablist" onKeyDown={(e) => {
        if (e.key === 'ArrowRight') move(at + 1);
        else if (e.key === 'ArrowLeft') move(at - 1);
        else if (e.key === 'Home') move(0);
        else if (e.key === 'End') move(tabs.length - 1);
        else return;
        e.preventDefault();
      }}>
        {tabs.map((t) => (
          <button key={t.id} type="button" role="tab" id={`tab-${t.id}`} aria-selected={t.id === selected} aria-controls={`panel-${t.id}`}
            tabIndex={t.id === selected ? 0 : -1} onClick={() => onSelect(t.id)}>{t.label}</button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${selected}`} aria-labelledby={`tab-${selected}`} tabIndex={0} class="tabpanel">
        {children}
      </div>
    </div>
  );
};
