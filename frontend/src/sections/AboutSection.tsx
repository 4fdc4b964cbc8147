import { Reveal } from '../components/motion/Reveal';
import { about } from '../content';

export function AboutSection() {
  return (
    <section aria-labelledby="about-heading" className="bg-brand-700 px-4 py-20 text-white">
      <Reveal className="mx-auto grid max-w-6xl items-center gap-12 md:grid-cols-2">
        <div>
          <h2 id="about-heading" className="text-3xl font-bold sm:text-4xl">
            {about.heading}
          </h2>
          <p className="mt-5 text-lg text-white">{about.text}</p>
        </div>
        <ul className="grid grid-cols-3 gap-4 text-center">
          {about.stats.map((stat) => (
            <li key={stat.label} className="rounded-2xl bg-white/10 p-4">
              <span className="block text-3xl font-extrabold sm:text-4xl">{stat.value}</span>
              <span className="mt-2 block text-sm font-medium">{stat.label}</span>
            </li>
          ))}
        </ul>
      </Reveal>
    </section>
  );
}
