/** Long text (a chat template, llama.cpp's system info) folded behind a summary line. */
import { Accordion, AccordionDetails, AccordionSummary, Box, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';

export function CollapsibleText({ title, text }: { title: string; text: string }) {
  return (
    <Accordion variant="outlined" disableGutters>
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Typography variant="body2">
          {title} ({text.length.toLocaleString('en-US')} characters)
        </Typography>
      </AccordionSummary>
      <AccordionDetails>
        <Box component="pre" sx={{ m: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontSize: 13 }}>
          {text}
        </Box>
      </AccordionDetails>
    </Accordion>
  );
}
