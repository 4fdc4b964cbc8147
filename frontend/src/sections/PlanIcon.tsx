import { Briefcase, HeartPulse, ShieldPlus, Users } from 'lucide-react';
import type { PlanIconName } from '../content';

const icons = {
  medicare: HeartPulse,
  family: Users,
  medicaid: ShieldPlus,
  employer: Briefcase,
} as const;

export function PlanIcon({ name }: { name: PlanIconName }) {
  const Icon = icons[name];
  return <Icon aria-hidden="true" width={28} height={28} />;
}
