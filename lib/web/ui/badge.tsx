// A run's standing as a small labelled pill; the class carries the colour, the text the meaning.
export const StandingBadge = ({ standing }: { readonly standing: string }) => <span class={`badge s-${standing}`}>{standing}</span>;
