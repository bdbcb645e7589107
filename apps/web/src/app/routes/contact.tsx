// Placeholder while the page is being built this session; replaced by its feature.
import { InfoPage } from './info-page';

export default function Placeholder() {
  return <InfoPage page="contact" />;
}
