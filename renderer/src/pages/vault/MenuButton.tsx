/** A button that opens a menu of options; picking one calls `onPick` (bulk "Move to", "Set label", samples). */
import { Button, Menu, MenuItem, type ButtonProps } from '@mui/material';
import { useId, useState } from 'react';
import type { Option } from './options';

interface Props extends Omit<ButtonProps, 'onClick'> {
  options: readonly Option[];
  onPick: (value: string) => void;
}

export function MenuButton({ options, onPick, children, ...button }: Props) {
  const menuId = useId();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Button {...button} aria-haspopup="menu" aria-controls={anchor ? menuId : undefined} aria-expanded={anchor !== null} onClick={(e) => setAnchor(e.currentTarget)}>
        {children} ▾
      </Button>
      <Menu id={menuId} anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {options.map((o) => (
          <MenuItem key={o.value} onClick={() => (setAnchor(null), onPick(o.value))}>
            {o.label}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}
