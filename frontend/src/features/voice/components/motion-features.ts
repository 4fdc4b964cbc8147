// Loaded by LazyMotion on first render of the voice island, so the animation code stays out of
// every chunk that imports a motion component (the `m` components carry none of it).
import { domAnimation } from 'framer-motion';

export default domAnimation;
