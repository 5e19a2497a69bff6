import { useEffect, useState } from 'react';

/**
 * A QR code of `text` as an image named `label`, for a phone's camera. The encoder (`qrcode`)
 * is imported when the first one is drawn, so it never weighs on a page that shows none.
 * Dark on white with a quiet zone, whatever the page's theme: cameras read that best.
 */
export function QrCode({
  text,
  label,
  size = 176,
}: {
  text: string;
  label: string;
  size?: number;
}) {
  const [drawn, setDrawn] = useState<{ text: string; src: string } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    import('qrcode')
      .then((qr) =>
        qr.toDataURL(text, {
          errorCorrectionLevel: 'M',
          margin: 2,
          // Drawn at twice the size shown: sharp on a high-density screen.
          width: size * 2,
          color: { dark: '#1c1917ff', light: '#ffffffff' },
        }),
      )
      .then(
        (src) => live && setDrawn({ text, src }),
        () => live && setFailed(true),
      );
    return () => {
      live = false;
    };
  }, [text, size]);
  if (failed) return null;
  if (drawn?.text !== text)
    return <span className="qr-code qr-code--drawing" style={{ width: size, height: size }} />;
  return <img className="qr-code" src={drawn.src} alt={label} width={size} height={size} />;
}
