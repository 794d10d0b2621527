import { Box, Link } from '@mui/material';
import { Fragment, useMemo } from 'react';
import { type WhatsappSegment, whatsappSegments } from '../lib/whatsapp-format';

function Segments({ list }: { list: WhatsappSegment[] }) {
  return (
    <>
      {list.map((s, i) => {
        const key = `${s.type}-${i}`;
        switch (s.type) {
          case 'text':
            return <Fragment key={key}>{s.text}</Fragment>;
          case 'link':
            return (
              <Link key={key} href={s.href} target="_blank" rel="noopener noreferrer nofollow" sx={{ overflowWrap: 'anywhere' }}>
                {s.text}
              </Link>
            );
          case 'mono':
            return (
              <Box key={key} component="code" sx={{ fontFamily: 'monospace', fontSize: '0.9em', bgcolor: 'action.hover', px: 0.5, borderRadius: 0.5 }}>
                {s.text}
              </Box>
            );
          case 'bold':
            return (
              <strong key={key}>
                <Segments list={s.children} />
              </strong>
            );
          case 'italic':
            return (
              <em key={key}>
                <Segments list={s.children} />
              </em>
            );
          default:
            // strike, the last kind
            return (
              <s key={key}>
                <Segments list={s.children} />
              </s>
            );
        }
      })}
    </>
  );
}

/** A message's text as WhatsApp shows it: *negrita*, _cursiva_, ~tachado~, ```mono``` and its addresses as links (never HTML). */
export function WhatsappText({ text }: { text: string }) {
  const list = useMemo(() => whatsappSegments(text), [text]);
  return <Segments list={list} />;
}
