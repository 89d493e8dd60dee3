/**
 * Vocabulary of the synthetic clinic-notes sample (see clinicNotes.ts): the public label
 * set (the department a note is triaged to), per-department symptoms, conditions,
 * medications, findings and plans — which make the label learnable from the words of a
 * note — plus department-neutral background phrases and surnames. Invented for Veil;
 * no real patient text.
 */

export const CLINIC_LABELS = ['cardiology', 'respiratory', 'dermatology', 'orthopedics', 'gastroenterology'] as const;
export type ClinicLabel = (typeof CLINIC_LABELS)[number];

export interface DepartmentVocabulary {
  symptoms: readonly string[];
  conditions: readonly string[];
  medications: readonly string[];
  findings: readonly string[];
  plans: readonly string[];
}

export const DEPARTMENTS: Record<ClinicLabel, DepartmentVocabulary> = {
  cardiology: {
    symptoms: ['chest tightness on exertion', 'palpitations and a pounding heart', 'chest pressure when climbing stairs', 'ankle swelling and a fast heart rate', 'dizziness and chest discomfort on standing', 'chest pain radiating to the left arm', 'a racing heart at night', 'fainting with an irregular heartbeat'],
    conditions: ['atrial fibrillation', 'stable angina', 'heart failure', 'coronary artery disease', 'hypertensive heart disease', 'mitral valve regurgitation'],
    medications: ['metoprolol 50 mg twice daily for heart rate control', 'apixaban 5 mg twice daily', 'atorvastatin 40 mg at night for cholesterol', 'lisinopril 10 mg daily for blood pressure', 'furosemide 40 mg in the morning', 'aspirin 81 mg daily for cardiac protection'],
    findings: ['ECG shows atrial fibrillation with a heart rate of 110', 'blood pressure 152/94 with an irregular heart rhythm', 'echocardiogram shows an ejection fraction of 35%', 'normal cardiac troponin', 'pitting edema of the ankles and raised jugular venous pressure', 'a systolic heart murmur at the apex'],
    plans: ['a 24-hour Holter heart monitor', 'an exercise stress test of the heart', 'uptitrate the beta blocker', 'repeat the cholesterol panel in 6 weeks', 'cardiology review in 3 months', 'an echocardiogram of the heart'],
  },
  respiratory: {
    symptoms: ['a productive cough', 'wheezing and cough at night', 'a persistent dry cough', 'tight breathing in cold air', 'coughing up green sputum', 'waking at night short of breath', 'breathlessness and cough after a cold'],
    conditions: ['asthma', 'COPD', 'pneumonia of the right lung', 'obstructive sleep apnea', 'bronchiectasis', 'chronic bronchitis'],
    medications: ['a salbutamol inhaler as needed', 'a budesonide/formoterol inhaler twice daily', 'a tiotropium inhaler once daily', 'amoxicillin 500 mg three times daily for the lung infection', 'prednisolone 40 mg for 5 days', 'montelukast 10 mg at night for the airways'],
    findings: ['oxygen saturation 93% on room air', 'expiratory wheeze in both lungs', 'crackles at the right lung base', 'peak flow 320 L/min, 70% of predicted', 'lung X-ray shows right lower lobe consolidation', 'spirometry shows airway obstruction with an FEV1/FVC ratio of 0.62'],
    plans: ['lung function tests with reversibility', 'check inhaler technique', 'send a sputum culture', 'repeat the lung X-ray in 6 weeks', 'pulmonary rehabilitation for breathing', 'an overnight sleep study of breathing'],
  },
  dermatology: {
    symptoms: ['an itchy red rash on both elbows', 'a changing mole on the back', 'dry scaly skin patches on the scalp', 'a painful blistering rash along the ribs', 'acne spots on the cheeks and jaw', 'a non-healing skin sore on the nose', 'itchy hives after using a new detergent'],
    conditions: ['psoriasis', 'atopic eczema', 'acne vulgaris', 'basal cell carcinoma of the skin', 'shingles (herpes zoster)', 'contact dermatitis', 'rosacea'],
    medications: ['clobetasol 0.05% ointment to the skin twice daily', 'an emollient skin cream three times daily', 'doxycycline 100 mg daily', 'tretinoin 0.025% cream at night', 'valacyclovir 1 g three times daily', 'cetirizine 10 mg daily for the itch'],
    findings: ['well-demarcated silvery skin plaques on the elbows', 'an asymmetric pigmented skin lesion of 7 mm', 'a pearly papule with telangiectasia', 'a vesicular rash in a dermatomal distribution', 'comedones and inflamed papules on the face', 'thickened lichenified skin in the flexures'],
    plans: ['dermoscopy and excision biopsy of the lesion', 'patch testing for skin allergens', 'photograph the skin lesion for monitoring', 'phototherapy for the skin', 'review the rash in 8 weeks', 'sun protection advice for the skin'],
  },
  orthopedics: {
    symptoms: ['right knee pain after a fall', 'lower back pain radiating down the left leg', 'shoulder pain when lifting the arm', 'a swollen ankle joint after twisting it', 'morning stiffness in the hip joint', 'wrist pain after a fall on an outstretched hand', 'numbness in the fingers at night'],
    conditions: ['osteoarthritis of the knee joint', 'lumbar disc herniation', 'a rotator cuff tear of the shoulder', 'an ankle sprain', 'a distal radius fracture of the wrist', 'carpal tunnel syndrome', 'osteoarthritis of the hip joint'],
    medications: ['ibuprofen 400 mg three times daily', 'acetaminophen 1 g four times daily', 'naproxen 500 mg twice daily for joint pain', 'diclofenac gel to the joint', 'tramadol 50 mg as needed', 'a corticosteroid joint injection'],
    findings: ['reduced knee movement and a positive McMurray test', 'X-ray shows joint space narrowing', 'a positive straight leg raise at 40 degrees', 'bone tenderness over the lateral malleolus', 'a painful arc of shoulder movement', 'a positive Phalen test at the wrist'],
    plans: ['physiotherapy for the joint', 'MRI of the lumbar spine', 'a wrist splint for 6 weeks', 'an orthopedic surgery consult', 'weight-bearing as tolerated', 'repeat the bone X-ray in 2 weeks'],
  },
  gastroenterology: {
    symptoms: ['heartburn after meals', 'abdominal bloating and cramping', 'loose stools and urgency', 'blood in the stool', 'upper abdominal pain after fatty food', 'difficulty swallowing solids', 'nausea and stomach upset'],
    conditions: ['gastroesophageal reflux disease', 'irritable bowel syndrome', "Crohn's disease of the bowel", 'ulcerative colitis', 'gallstones', 'celiac disease', 'a peptic ulcer of the stomach'],
    medications: ['omeprazole 20 mg daily for stomach acid', 'mesalamine 2.4 g daily', 'loperamide as needed for loose stools', 'pantoprazole 40 mg before breakfast', 'mebeverine 135 mg for bowel spasm', 'ondansetron 4 mg as needed for nausea'],
    findings: ['epigastric abdominal tenderness', 'a positive Murphy sign', 'raised stool calprotectin', 'hemoglobin 10.8 g/dL', 'a soft abdomen tender in the left iliac fossa', 'elevated tissue transglutaminase antibodies'],
    plans: ['an upper endoscopy of the stomach', 'a colonoscopy of the bowel', 'an abdominal ultrasound', 'low FODMAP diet advice for the bowel', 'stool cultures', 'gastroenterology follow-up in 4 weeks'],
  },
};

/** Department-neutral background: these appear under every label. */
export const COMORBIDITIES = ['type 2 diabetes', 'hypothyroidism', 'no other significant history', 'depression, stable on sertraline', 'chronic kidney disease stage 3', 'migraine'];
export const ALLERGIES = ['no known drug allergies', 'allergic to penicillin', 'allergic to sulfa drugs', 'allergic to latex'];
export const SOCIAL = ['non-smoker', 'smokes 10 cigarettes a day', 'drinks alcohol socially', 'ex-smoker, quit 5 years ago', 'works night shifts', 'lives alone'];
export const DURATIONS = ['two days', 'a week', 'ten days', 'three weeks', 'two months', 'several months'];
export const PROGRESS = ['improving', 'unchanged', 'slightly worse', 'much better since the last visit', 'stable'];

export const SURNAMES = [
  'Smith', 'Johnson', 'Williams', 'Brown', 'Jones', 'Garcia', 'Miller', 'Davis', 'Rodriguez', 'Martinez', 'Hernandez', 'Lopez', 'Wilson',
  'Anderson', 'Thomas', 'Taylor', 'Moore', 'Jackson', 'Martin', 'Thompson', 'White', 'Harris', 'Clark', 'Lewis', 'Robinson', 'Walker',
  'Young', 'Allen', 'King', 'Wright', 'Scott', 'Torres', 'Nguyen', 'Hill', 'Flores', 'Green', 'Adams', 'Nelson', 'Baker', 'Hall',
  'Rivera', 'Campbell', 'Mitchell', 'Carter', 'Roberts', 'Okafor', 'Kowalski', 'Novak', 'Lindqvist', 'Haddad', 'Kim', 'Patel', 'Singh',
  'Chen', 'Tanaka', 'Rossi', 'Dubois', 'Schmidt', 'Murphy', 'Brennan', 'Kaur', 'Mensah', 'Ivanova', 'Costa', 'Fischer', 'Jansen',
];
