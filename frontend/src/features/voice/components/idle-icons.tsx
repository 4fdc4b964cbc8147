import { lineIcon } from '../../../components/ui/line-icon';

// The icons of the idle voice buttons (IdleVoice.tsx), which come before lucide-react's runtime.
// The assistant draws the same ones with lucide-react once it has taken over.

export const MicIcon = lineIcon(
  <>
    <path d="M12 19v3" />
    <path d="M19 10v2a7 7 0 0 1-14 0v-2" />
    <rect x="9" y="2" width="6" height="13" rx="3" />
  </>,
);

export const MessageSquareTextIcon = lineIcon(
  <>
    <path d="M22 17a2 2 0 0 1-2 2H6.828a2 2 0 0 0-1.414.586l-2.202 2.202A.71.71 0 0 1 2 21.286V5a2 2 0 0 1 2-2h16a2 2 0 0 1 2 2z" />
    <path d="M7 11h10" />
    <path d="M7 15h6" />
    <path d="M7 7h8" />
  </>,
);
