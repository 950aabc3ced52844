import { useState } from 'preact/hooks';

// Copies a text to the clipboard and says so (in a live region, so a screen reader hears it). The
// async clipboard needs a secure context (loopback is one); where it is refused, a selected
// off-screen textarea and the older copy command still work.

const copyText = async (text: string): Promise<boolean> => {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.left = '-9999px';
    document.body.append(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    return ok;
  }
};

export const CopyButton = ({ text, label, what }: { readonly text: string; readonly label?: string; readonly what: string }) => {
  const [said, setSaid] = useState('');
  return (
    <span class="copy">
      <button type="button" aria-label={label ? `${label}: ${what}` : `Copy ${what}`} onClick={async () => setSaid(await copyText(text) ? 'Copied.' : 'Could not copy; select the text instead.')}>{label ?? 'Copy'}</button>
      <span role="status" class="muted">{said}</span>
    </span>
  );
};
