import { useParams } from 'react-router';
import { FacilityDetails } from '../../features/facilities';

/** /blood-banks/:id: one blood bank's page (features/facilities). */
export default function FacilityPage() {
  const { id = '' } = useParams();
  return <FacilityDetails id={id} />;
}
