// The states a lead's ZIP code can belong to, by their USPS two-letter codes: the server sends a
// lead's `state` as its code, and the inbox names it. The same 62 codes and names as wasm-core's
// `State` (wasm-core/src/quote/state.rs), in its order: the 50 states and DC by name, then the
// territories, the freely associated states and the armed forces.

export const STATES: readonly (readonly [code: string, name: string])[] = [
  ['AL', 'Alabama'],
  ['AK', 'Alaska'],
  ['AZ', 'Arizona'],
  ['AR', 'Arkansas'],
  ['CA', 'California'],
  ['CO', 'Colorado'],
  ['CT', 'Connecticut'],
  ['DE', 'Delaware'],
  ['DC', 'District of Columbia'],
  ['FL', 'Florida'],
  ['GA', 'Georgia'],
  ['HI', 'Hawaii'],
  ['ID', 'Idaho'],
  ['IL', 'Illinois'],
  ['IN', 'Indiana'],
  ['IA', 'Iowa'],
  ['KS', 'Kansas'],
  ['KY', 'Kentucky'],
  ['LA', 'Louisiana'],
  ['ME', 'Maine'],
  ['MD', 'Maryland'],
  ['MA', 'Massachusetts'],
  ['MI', 'Michigan'],
  ['MN', 'Minnesota'],
  ['MS', 'Mississippi'],
  ['MO', 'Missouri'],
  ['MT', 'Montana'],
  ['NE', 'Nebraska'],
  ['NV', 'Nevada'],
  ['NH', 'New Hampshire'],
  ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'],
  ['NY', 'New York'],
  ['NC', 'North Carolina'],
  ['ND', 'North Dakota'],
  ['OH', 'Ohio'],
  ['OK', 'Oklahoma'],
  ['OR', 'Oregon'],
  ['PA', 'Pennsylvania'],
  ['RI', 'Rhode Island'],
  ['SC', 'South Carolina'],
  ['SD', 'South Dakota'],
  ['TN', 'Tennessee'],
  ['TX', 'Texas'],
  ['UT', 'Utah'],
  ['VT', 'Vermont'],
  ['VA', 'Virginia'],
  ['WA', 'Washington'],
  ['WV', 'West Virginia'],
  ['WI', 'Wisconsin'],
  ['WY', 'Wyoming'],
  ['AS', 'American Samoa'],
  ['GU', 'Guam'],
  ['MP', 'Northern Mariana Islands'],
  ['PR', 'Puerto Rico'],
  ['VI', 'U.S. Virgin Islands'],
  ['FM', 'Federated States of Micronesia'],
  ['MH', 'Marshall Islands'],
  ['PW', 'Palau'],
  ['AA', 'Armed Forces Americas'],
  ['AE', 'Armed Forces Europe'],
  ['AP', 'Armed Forces Pacific'],
];

const NAMES = new Map(STATES);

/** A state's name from its two letters (any case); a code the inbox does not know, as it is. */
export function stateName(code: string): string {
  return NAMES.get(code.trim().toUpperCase()) ?? code;
}

/** The badge a lead gets when its state is not among the broker's licences. */
export const notLicensedText = (code: string) => `Not licensed in ${stateName(code)}`;

/** Why a lead's number has no Call link: its state is not among the broker's licences. */
export const notLicensedToCall = (code: string) =>
  `No Call link: you are not licensed in ${stateName(code)} (add the licence to broker.licences in the content if you hold one)`;
