import { domAnimation } from 'framer-motion';

// Loaded on demand by MotionProvider, so the animation engine is not part of the first load.
export default domAnimation;
